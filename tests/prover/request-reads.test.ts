/**
 * Operations the call alone does not make: a connection to an address the request chose (not one the
 * administrator configured), and a configuration read that a list box or form validation answers with
 * (not the same read in a build step). Fixtures in the shape of the Jenkins advisories they come from
 * (github-branch-source SECURITY-806 and SECURITY-3808, bitbucket-branch-source SECURITY-2033, mailer
 * SECURITY-2163), written for these tests.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

function prove(files: Record<string, string>) {
  return proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
}

function endpointDescriptor(body: string): Record<string, string> {
  return {
    'src/main/java/org/acme/Endpoint.java': `package org.acme;
import org.kohsuke.github.GitHub;
public class Endpoint extends AbstractDescribableImpl<Endpoint> {
  private String apiUri;
  @Extension
  public static class DescriptorImpl extends Descriptor<Endpoint> {
${body}
  }
}
`,
  };
}

describe('connections to an address the request chose', () => {
  it('reports form validation that connects to the submitted API URL, and not once the administrator is checked', async () => {
    const open = `    public FormValidation doCheckApiUri(@QueryParameter String apiUri) {
      try {
        URL api = new URL(apiUri);
        GitHub github = GitHub.connectToEnterpriseAnonymously(api.toString());
        github.checkApiUrlValidity();
        return FormValidation.ok();
      } catch (IOException e) {
        return FormValidation.error("no");
      }
    }`;
    const found = await prove(endpointDescriptor(open));
    expect(found.findings.map((f) => [f.function, f.operation.id, f.cwe])).toEqual([['DescriptorImpl.doCheckApiUri', 'java.requested-address-connection', 'CWE-862']]);
    const guarded = await prove(endpointDescriptor(open.replace('try {', 'Jenkins.get().checkPermission(Jenkins.ADMINISTER);\n      try {')));
    expect(guarded.findings).toEqual([]);
    expect(guarded.coverage.operationsDischarged).toBe(1);
  });

  it('reports a host name from the request resolved by form validation', async () => {
    const result = await prove(endpointDescriptor(`    public FormValidation doCheckSmtpServer(@QueryParameter String value) {
      try {
        if (Util.fixEmptyAndTrim(value) != null) InetAddress.getByName(value);
        return FormValidation.ok();
      } catch (UnknownHostException e) {
        return FormValidation.error("unknown host");
      }
    }`));
    expect(result.findings.map((f) => f.operation.call)).toEqual(['InetAddress.getByName(value)']);
  });

  it('does not report a connection to the configured address, nor a validation that only parses the URL', async () => {
    const result = await prove(endpointDescriptor(`    public FormValidation doCheckName(@QueryParameter String value) {
      GitHub github = GitHub.connectToEnterpriseAnonymously(Endpoint.this.apiUri);
      return FormValidation.ok();
    }
    public FormValidation doCheckUrl(@QueryParameter String value) {
      try {
        new URL(value);
        return FormValidation.ok();
      } catch (MalformedURLException e) {
        return FormValidation.error("malformed");
      }
    }`));
    expect(result.findings).toEqual([]);
    expect(result.coverage.operationsChecked).toBe(0);
  });
});

const navigator = (guard: string): Record<string, string> => ({
  'src/main/java/org/acme/GitHubConfiguration.java': `package org.acme;
public class GitHubConfiguration extends GlobalConfiguration {
  public static GitHubConfiguration get() { return GlobalConfiguration.all().get(GitHubConfiguration.class); }
  public List<Endpoint> getEndpoints() { return endpoints; }
}
`,
  'src/main/java/org/acme/Navigator.java': `package org.acme;
public class Navigator extends SCMNavigator {
  @Extension
  public static class DescriptorImpl extends SCMNavigatorDescriptor {
    public ListBoxModel doFillApiUriItems(@AncestorInPath Item context) {
      return getPossibleApiUriItems(context);
    }
    static ListBoxModel getPossibleApiUriItems(Item context) {
${guard}
      ListBoxModel result = new ListBoxModel();
      for (Endpoint e : GitHubConfiguration.get().getEndpoints()) {
        result.add(e.getName(), e.getApiUri());
      }
      return result;
    }
  }
}
`,
  // Another DescriptorImpl with a same-name method, in a file read first: the bare call above is its own class's.
  'src/main/java/org/acme/ArchiveSource.java': `package org.acme;
public class Source extends SCMSource {
  @Extension
  public static class DescriptorImpl extends SCMSourceDescriptor {
    static ListBoxModel getPossibleApiUriItems(Item context) { return new ListBoxModel(); }
  }
}
`,
});

describe('configuration a list box answers with', () => {
  it('reports the configured endpoints listed to any user, through a helper of its own nested descriptor', async () => {
    const result = await prove(navigator(''));
    expect(result.findings.map((f) => [f.function, f.entry.function, f.operation.id, f.operation.kind])).toEqual([['DescriptorImpl.getPossibleApiUriItems', 'DescriptorImpl.doFillApiUriItems', 'jenkins.configuration-listing', 'read']]);
  });

  it('does not report the listing once both context arms check and leave', async () => {
    const result = await prove(
      navigator(`      if (context == null ? !Jenkins.get().hasPermission(Jenkins.MANAGE) : !context.hasPermission(Item.EXTENDED_READ)) {
        return new ListBoxModel();
      }`),
    );
    expect(result.findings).toEqual([]);
    expect(result.coverage.operationsDischarged).toBe(1);
  });

  it('does not count a read a helper uses for itself: the list box answers with credentials, not endpoints', async () => {
    const result = await prove({
      'src/main/java/org/acme/Navigator.java': `package org.acme;
public class Navigator extends SCMNavigator {
  @Extension
  public static class DescriptorImpl extends SCMNavigatorDescriptor {
    public ListBoxModel doFillServerUrlItems(@AncestorInPath Item context, @QueryParameter String serverUrl) {
      String normalised = normalise(serverUrl);
      return new ListBoxModel().add(normalised);
    }
    static String normalise(String serverUrl) {
      for (Endpoint e : GitHubConfiguration.get().getEndpoints()) {
        if (e.getApiUri().equals(serverUrl)) return e.getApiUri();
      }
      return serverUrl;
    }
  }
}
`,
    });
    expect(result.findings).toEqual([]);
    expect(result.coverage.operationsChecked).toBe(0);
  });

  it('does not make the same read an obligation behind another kind of entry', async () => {
    const result = await prove({
      'src/main/java/org/acme/Notifier.java': `package org.acme;
public class Notifier extends Builder {
  @Extension
  public static class DescriptorImpl extends BuildStepDescriptor<Builder> {
    public HttpResponse doIndex(StaplerRequest req) {
      int n = GitHubConfiguration.get().getEndpoints().size();
      return HttpResponses.text(String.valueOf(n));
    }
  }
}
`,
    });
    expect(result.findings).toEqual([]);
    expect(result.coverage.unreached).toBe(0);
  });
});
