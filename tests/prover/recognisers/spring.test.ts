import { runRecogniserTable } from '../recogniser-tester.js';

runRecogniserTable('spring', {
  positive: [
    {
      name: 'mapped methods of a @RestController, with the class-level prefix',
      files: {
        'src/main/java/app/ReportController.java': `@RestController
@RequestMapping("/api/reports")
public class ReportController {
  @GetMapping
  public List<Report> list() { return null; }
  @DeleteMapping(value = "/{id}")
  public void delete(@PathVariable long id) { }
  @RequestMapping(path = {"/purge", "/wipe"}, method = RequestMethod.POST)
  public void purge() { }
  private void helper() { }
}
`,
      },
      entries: [
        { function: 'ReportController.list', line: 4 },
        { function: 'ReportController.delete', line: 6 },
        { function: 'ReportController.purge', line: 8 },
      ],
    },
    {
      name: 'a @Controller without a class-level mapping',
      files: { 'src/main/java/app/HomeController.java': '@Controller\npublic class HomeController {\n  @PostMapping("/settings")\n  public String save() { return "ok"; }\n}\n' },
      entries: [{ function: 'HomeController.save', line: 3 }],
    },
  ],
  negative: [
    {
      name: 'mapping annotations on a class that is no controller',
      files: { 'src/main/java/app/Client.java': 'public class Client {\n  @GetMapping("/x")\n  public String get() { return ""; }\n}\n' },
    },
    {
      name: 'a controller method without a mapping',
      files: { 'src/main/java/app/UserController.java': '@RestController\npublic class UserController {\n  public void notRouted() { }\n}\n' },
    },
  ],
});
