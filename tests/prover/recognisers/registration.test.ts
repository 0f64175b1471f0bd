import { runRecogniserTable } from '../recogniser-tester.js';

runRecogniserTable('registration', {
  positive: [
    {
      name: 'addServlet with a ServletHolder of a repository servlet class',
      files: {
        'src/Server.java': `public class Server {
  void start(ServletContextHandler context) {
    context.addServlet(new ServletHolder(ExportServlet.class), "/export/*");
  }
}
`,
        'src/ExportServlet.java': `public class ExportServlet extends ExternalServletBase {
  protected void doGet(Req req, Resp resp) { }
  protected void doPost(Req req, Resp resp) { }
  void helper() { }
}
`,
      },
      entries: [
        { function: 'ExportServlet.doGet', line: 2 },
        { function: 'ExportServlet.doPost', line: 3 },
      ],
    },
    {
      name: 'setHandler with a new repository handler',
      files: {
        'src/Main.java': 'public class Main {\n  void run(Server server) {\n    server.setHandler(new AdminHandler());\n  }\n}\n',
        'src/AdminHandler.java': 'public class AdminHandler extends SomeLibraryHandler {\n  public boolean handle(Request r, Response s, Callback c) { return true; }\n}\n',
      },
      entries: [{ function: 'AdminHandler.handle', line: 2 }],
    },
  ],
  negative: [
    {
      name: 'a registration of a class the repository does not define is counted, not an entry',
      files: { 'src/Main.java': 'public class Main {\n  void run(ServletContextHandler c) {\n    c.addServlet(DefaultServlet.class, "/");\n  }\n}\n' },
      unresolved: { registration_unresolved: 1 },
    },
    {
      name: 'no registration calls',
      files: { 'src/Main.java': 'public class Main {\n  void run() { list.add(new Thing()); }\n}\n' },
      unresolved: {},
    },
  ],
});
