import { runRecogniserTable } from '../recogniser-tester.js';

runRecogniserTable('stapler', {
  positive: [
    {
      name: 'form validation (static too) and test-connection methods of a nested DescriptorImpl',
      files: {
        'src/main/java/org/acme/ArchiveBuilder.java': `package org.acme;
public class ArchiveBuilder extends Builder {
  @Extension
  public static class DescriptorImpl extends BuildStepDescriptor<Builder> {
    public FormValidation doCheckEndpoint(@QueryParameter String value) {
      return FormValidation.ok();
    }
    public FormValidation doTestConnection(@QueryParameter String endpoint) {
      return FormValidation.ok();
    }
    private FormValidation doHidden(String x) { return null; }
    public static FormValidation doCheckServerUrl(@QueryParameter String value) { return FormValidation.ok(); }
    public String getDisplayName() { return "Archive"; }
  }
}
`,
      },
      entries: [
        { function: 'DescriptorImpl.doCheckEndpoint', line: 5, kind: 'form_validation', access: 'protected' },
        { function: 'DescriptorImpl.doTestConnection', line: 8, kind: 'route' },
        { function: 'DescriptorImpl.doCheckServerUrl', line: 12, kind: 'form_validation' },
      ],
    },
    {
      name: 'an UnprotectedRootAction web method is public',
      files: {
        'src/main/java/org/acme/HookReceiver.java': `package org.acme;
@Extension
public class HookReceiver implements UnprotectedRootAction {
  public String getUrlName() { return "acme-hook"; }
  @RequirePOST
  public HttpResponse doIndex(StaplerRequest2 req) {
    return HttpResponses.ok();
  }
}
`,
      },
      entries: [{ function: 'HookReceiver.doIndex', line: 5, access: 'public' }],
    },
    {
      name: 'a Stapler parameter makes a method routable on any class',
      files: {
        'src/main/java/org/acme/Helper.java': `package org.acme;
public class Helper {
  public void doReindex(StaplerRequest req, StaplerResponse rsp) { }
}
`,
      },
      entries: [{ function: 'Helper.doReindex', line: 3 }],
    },
    {
      name: 'getDynamic takes the URL tokens nothing else did: an entry with its Stapler parameters',
      files: {
        'src/main/java/org/acme/ReportsAction.java': `package org.acme;
@Extension
public class ReportsAction implements RootAction {
  public String getUrlName() { return "reports"; }
  public Object getDynamic(String token, StaplerRequest req, StaplerResponse rsp) {
    return Report.load(token);
  }
}
`,
      },
      entries: [{ function: 'ReportsAction.getDynamic', line: 5, kind: 'route', access: 'protected' }],
    },
  ],
  negative: [
    {
      name: 'a getDynamic without Stapler parameters is an ordinary getter',
      files: { 'src/Lookup.java': 'public class Lookup extends Descriptor<Object> {\n  public Object getDynamic(String name) { return null; }\n}\n' },
    },
    {
      name: 'a do-method of a plain class with no Stapler cue',
      files: { 'src/Plain.java': 'public class Plain {\n  public void doWork(String x) { }\n}\n' },
    },
    {
      name: 'non-public and static do-methods, and getters',
      files: {
        'src/D.java': `public class D extends Descriptor<Object> {
  protected FormValidation doCheckName(@QueryParameter String value) { return null; }
  public static void doStatic(StaplerRequest req) { }
  public String getName() { return ""; }
}
`,
      },
    },
  ],
});
