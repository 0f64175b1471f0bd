import { runRecogniserTable } from '../recogniser-tester.js';

runRecogniserTable('jetty', {
  positive: [
    {
      name: 'handle() of an AbstractHandler',
      files: {
        'src/MaintenanceHandler.java': `public class MaintenanceHandler extends AbstractHandler {
  @Override
  public void handle(String target, Request base, HttpServletRequest req, HttpServletResponse resp) throws IOException {
    base.setHandled(true);
  }
  private void helper() { }
}
`,
      },
      entries: [{ function: 'MaintenanceHandler.handle', line: 2 }],
    },
    {
      name: 'servlet verbs, including through a repository base servlet',
      files: {
        'src/BaseServlet.java': 'public abstract class BaseServlet extends HttpServlet {\n  protected void log2(String s) { }\n}\n',
        'src/PurgeServlet.java': `public class PurgeServlet extends BaseServlet {
  protected void doPost(HttpServletRequest req, HttpServletResponse resp) { }
  protected void doGet(HttpServletRequest req, HttpServletResponse resp) { }
}
`,
      },
      entries: [
        { function: 'PurgeServlet.doPost', line: 2 },
        { function: 'PurgeServlet.doGet', line: 3 },
      ],
    },
    {
      name: 'JAX-RS resource methods and a sub-resource locator',
      files: {
        'src/AccountResource.java': `@Path("/accounts")
public class AccountResource {
  @DELETE
  @Path("{id}")
  public void close(@PathParam("id") long id) { }
  @Path("{id}/keys")
  public KeyResource keys(@PathParam("id") long id) { return null; }
  public void notRouted() { }
}
`,
      },
      entries: [
        { function: 'AccountResource.close', line: 3 },
        { function: 'AccountResource.keys', line: 6 },
      ],
    },
  ],
  negative: [
    {
      name: 'a handle() method of a class that is no handler',
      files: { 'src/Queue.java': 'public class Queue {\n  public void handle(String msg) { }\n}\n' },
    },
    {
      name: 'a @GET method without any @Path',
      files: { 'src/Thing.java': 'public class Thing {\n  @GET\n  public String get() { return ""; }\n}\n' },
    },
  ],
});
