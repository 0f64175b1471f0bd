/**
 * Jenkins plugin semantics of the prover met on real fixes, as small fixtures written here: the overload
 * a call's argument types pick, a handler-named operation discharged by the checks in its body, and the
 * cache administration web methods of a descriptor.
 */
import { describe, expect, it } from 'vitest';
import { chooseOverloads, argumentType } from '../../src/prover/overloads.js';
import { proveChange } from '../../src/prover/prove.js';
import { nodeAt, resolveCall } from '../../src/prover/resolution.js';
import { programOf } from './recogniser-tester.js';

function prove(files: Record<string, string>) {
  return proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
}

/** Two same-arity overloads: the Item one checks before listing, the ItemGroup one lists for the root. */
const credentialsUtils = `package org.example.util;
import hudson.model.Item;
import hudson.model.ItemGroup;
public class CredentialsUtils {
    public static ListBoxModel listCredentials(Item context, String serverUrl, String credentialsId) {
        StandardListBoxModel result = new StandardListBoxModel();
        if (!context.hasPermission(CredentialsProvider.VIEW)) {
            return result;
        }
        result.includeMatchingAs(ACL.SYSTEM2, context, StandardCredentials.class, serverUrl, CredentialsMatchers.always());
        return result;
    }
    public static ListBoxModel listCredentials(ItemGroup<?> context, String serverUrl, String credentialsId) {
        StandardListBoxModel result = new StandardListBoxModel();
        result.includeMatchingAs(ACL.SYSTEM2, context, StandardCredentials.class, serverUrl, CredentialsMatchers.always());
        return result;
    }
}
`;

const descriptor = (contextType: string) => `package org.example;
import jenkins.scm.api.SCMSourceOwner;
import org.example.util.CredentialsUtils;
public class ExampleSource extends SCMSource {
    public static class DescriptorImpl extends SCMSourceDescriptor {
        @RequirePOST
        public ListBoxModel doFillCredentialsIdItems(@AncestorInPath ${contextType} context, @QueryParameter String serverUrl) {
            return CredentialsUtils.listCredentials(context, serverUrl, null);
        }
    }
}
`;

describe('overloads chosen by argument types', () => {
  it('follows the overload a library subtype fits (an SCMSourceOwner is an Item), not the same-arity sibling', async () => {
    const result = await prove({ 'src/main/java/org/example/util/CredentialsUtils.java': credentialsUtils, 'src/main/java/org/example/ExampleSource.java': descriptor('SCMSourceOwner') });
    expect(result.findings).toEqual([]);
  });

  it('still reports the unchecked overload when the argument is the item group, and its call (a wrapper that does not check)', async () => {
    const result = await prove({ 'src/main/java/org/example/util/CredentialsUtils.java': credentialsUtils, 'src/main/java/org/example/ExampleSource.java': descriptor('ItemGroup<?>') });
    expect(result.findings.map((f) => `${f.function}:${f.line}`)).toEqual(['DescriptorImpl.doFillCredentialsIdItems:8', 'CredentialsUtils.listCredentials:15']);
  });

  it('keeps every same-arity overload when no argument type tells them apart', async () => {
    const program = await programOf({
      'src/Store.java': 'public class Store {\n  static void put(Item a) { }\n  static void put(ItemGroup a) { }\n}\n',
      'src/Use.java': 'public class Use {\n  void run(Object unknown) {\n    Store.put(mystery());\n    Store.put((Item) unknown);\n  }\n}\n',
    });
    const file = program.byPath.get('src/Use.java')!;
    const fn = nodeAt(program, file.ir, 3)!.fn;
    const [unknown, cast] = file.ir.calls.filter((c) => c.callee === 'put').map((c) => resolveCall(program, file, fn, c).targets.map((t) => t.fn.startLine));
    expect(unknown).toEqual([2, 3]);
    expect(cast).toEqual([2]);
  });

  it('reads argument types from literals, casts, constructions and declarations', () => {
    const typeOf = (name: string) => (name === 'owner' ? 'jenkins.scm.api.SCMSourceOwner' : null);
    expect(['"x"', '(Item) ctx', 'new Folder("a")', 'owner', 'other', 'null', 'a.b()'].map((a) => argumentType(a, typeOf))).toEqual(['String', 'Item', 'Folder', 'SCMSourceOwner', null, null, null]);
    expect(chooseOverloads([], { callee: 'f', receiver: null, arity: 0, line: 1, enclosingFunction: null, text: 'f()', kind: 'call' }, { typeOf, supertypesOf: () => [] })).toEqual([]);
  });
});

/** A descriptor's list box with the root/item case split written as two denials. */
const caseSplit = (second: string) => `package org.example;
public class SplitSource extends SCMSource {
    public static class DescriptorImpl extends SCMSourceDescriptor {
        public ListBoxModel doFillCredentialsIdItems(@AncestorInPath Item context, @QueryParameter String serverUrl) {
            StandardListBoxModel result = new StandardListBoxModel();
            if (context == null && !Jenkins.get().hasPermission(Jenkins.ADMINISTER)) {
                return result;
            }
${second}
            result.includeMatchingAs(ACL.SYSTEM2, context, StandardCredentials.class, serverUrl, CredentialsMatchers.always());
            return result;
        }
    }
}
`;

describe('a case split written as two denials', () => {
  it('discharges with the root case and the item case each denied', async () => {
    const result = await prove({ 'src/main/java/org/example/SplitSource.java': caseSplit('            if (context != null && !context.hasPermission(Item.EXTENDED_READ)) {\n                return result;\n            }') });
    expect(result.findings).toEqual([]);
  });

  it('still reports when only the root case is denied, or the second denial tests the same case', async () => {
    for (const second of ['', '            if (context == null && !context.hasPermission(Item.EXTENDED_READ)) {\n                return result;\n            }']) {
      const result = await prove({ 'src/main/java/org/example/SplitSource.java': caseSplit(second) });
      expect(result.findings.map((f) => f.operation.id)).toEqual(['jenkins.credentials-lookup']);
    }
  });
});

/** A notifier descriptor's test-connection button; `checks` is written at the top of the method, `late` after the work. */
const testConnection = (checks: string, late = '') => `package org.example;
public class ChatNotifier extends Notifier {
    public static class DescriptorImpl extends BuildStepDescriptor<Publisher> {
        @POST
        public FormValidation doTestConnection(@QueryParameter("baseUrl") final String baseUrl, @AncestorInPath Project project) {
            if (baseUrl == null) {
                return FormValidation.error("A URL is needed");
            }
${checks}
            try {
                ChatClient client = newClient(baseUrl);
                boolean sent = client.send("test");
${late}
                return sent ? FormValidation.ok("Success") : FormValidation.error("Failure");
            } catch (Exception e) {
                return FormValidation.error("Client error: " + e.getMessage());
            }
        }
        ChatClient newClient(String url) {
            return new ChatClient(url);
        }
    }
}
`;

describe('a handler-named operation is protected by what it does', () => {
  const proveButton = (checks: string, late = '') => prove({ 'src/main/java/org/example/ChatNotifier.java': testConnection(checks, late) });
  const split = '            if (project == null) {\n                Jenkins.get().checkPermission(Jenkins.ADMINISTER);\n            } else {\n                project.checkPermission(Item.CONFIGURE);\n            }';

  it('is discharged by a root/item case split before the work, after an early answer', async () => {
    expect((await proveButton(split)).findings).toEqual([]);
    expect((await proveButton('            Jenkins.get().checkPermission(Jenkins.ADMINISTER);')).findings).toEqual([]);
  });

  it('is reported with no check, with a check in one arm only, and with a check after the work', async () => {
    const oneArm = '            if (project != null) {\n                project.checkPermission(Item.CONFIGURE);\n            }';
    for (const [checks, late] of [['', ''], [oneArm, ''], ['', '                Jenkins.get().checkPermission(Jenkins.ADMINISTER);']] as const) {
      const result = await proveButton(checks, late);
      expect(result.findings.map((f) => f.operation.id)).toEqual(['stapler.connection-test-handler']);
    }
  });
});

/** An endpoint descriptor with cache buttons; `check` is written at the top of each. */
const cacheButtons = (check: string) => `package org.example;
public class CloudEndpoint extends AbstractEndpoint {
    public static class DescriptorImpl extends EndpointDescriptor {
        public FormValidation doShowStats() {
${check}
            List<String> stats = CloudApiClient.stats();
            return FormValidation.okWithMarkup(String.join("<br>", stats));
        }
        @POST
        public FormValidation doClear() {
${check}
            CloudApiClient.clearCaches();
            return FormValidation.ok("Caches cleared");
        }
    }
}
`;

const apiClient = `package org.example;
public class CloudApiClient {
    private static final Cache<String, Team> cachedTeam = new Cache<>(5);
    public static List<String> stats() {
        return List.of("Team: " + cachedTeam.stats());
    }
    public static void clearCaches() {
        cachedTeam.evictAll();
    }
    void onConfigChanged() {
        clearCaches();
    }
}
`;

describe('cache administration web methods', () => {
  it('reports clearing the caches and showing their statistics with no permission check', async () => {
    const result = await prove({ 'src/main/java/org/example/CloudEndpoint.java': cacheButtons(''), 'src/main/java/org/example/CloudApiClient.java': apiClient });
    expect(result.findings.map((f) => `${f.entry.function}:${f.operation.id}`).sort()).toEqual(['DescriptorImpl.doClear:jenkins.cache-administration', 'DescriptorImpl.doShowStats:jenkins.cache-statistics']);
  });

  it('is quiet once each button checks Overall/Manage', async () => {
    const result = await prove({ 'src/main/java/org/example/CloudEndpoint.java': cacheButtons('            Jenkins.get().checkPermission(Jenkins.MANAGE);'), 'src/main/java/org/example/CloudApiClient.java': apiClient });
    expect(result.findings).toEqual([]);
  });
});

/** A form validation that connects with the chosen credentials; `useCheck` guards the use for an item. */
const scanCredentials = (useCheck: string) => `package org.example;
public class Connector {
    public static FormValidation checkScanCredentials(@AncestorInPath Item context, @QueryParameter String apiUri, @QueryParameter String credentialsId) {
        if (context == null && !Jenkins.get().hasPermission(Jenkins.ADMINISTER) ||
                context != null && !context.hasPermission(Item.EXTENDED_READ)) {
            return FormValidation.ok();
        }
${useCheck}
        StandardUsernamePasswordCredentials credentials = CredentialsMatchers.firstOrNull(CredentialsProvider.lookupCredentials(StandardUsernamePasswordCredentials.class, context), CredentialsMatchers.withId(credentialsId));
        String token = credentials.getPassword().getPlainText();
        return FormValidation.ok(token.isEmpty() ? "empty" : "found");
    }
}
`;

const source = `package org.example;
public class ExampleSource extends SCMSource {
    public static class DescriptorImpl extends SCMSourceDescriptor {
        @RequirePOST
        public FormValidation doCheckScanCredentialsId(@AncestorInPath Item context, @QueryParameter String apiUri, @QueryParameter String value) {
            return Connector.checkScanCredentials(context, apiUri, value);
        }
    }
}
`;

describe('a permission that does not grant using a secret', () => {
  const proveUse = (useCheck: string) => prove({ 'src/main/java/org/example/Connector.java': scanCredentials(useCheck), 'src/main/java/org/example/ExampleSource.java': source });
  const operations = async (useCheck: string) => (await proveUse(useCheck)).findings.map((f) => f.operation.id);

  it('reports a secret used after Item/ExtendedRead only, or after a disjunction that lets Item/Build through', async () => {
    expect(await operations('')).toEqual(['jenkins.secret-plaintext']);
    expect(await operations('        if (context != null && !(context.hasPermission(Item.CONFIGURE)\n                || context.hasPermission(Item.BUILD))) {\n            return FormValidation.ok("found");\n        }')).toEqual(['jenkins.secret-plaintext']);
  });

  it('is quiet when Credentials/UseItem is required for the item case, the root case being an administrator', async () => {
    expect(await operations('        if (context != null && !context.hasPermission(CredentialsProvider.USE_ITEM)) {\n            return FormValidation.ok("found");\n        }')).toEqual([]);
  });
});

describe('MCP tools are entries judged by what they call', () => {
  const server = (guard: string) => `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { execSync } from 'child_process';
import { z } from 'zod';
const server = new McpServer({ name: 'ops', version: '1.0.0' });
server.tool('restart_service', 'Restart a service', { name: z.string() }, async ({ name }, extra) => {
${guard}
  execSync('systemctl restart ' + name);
  return { content: [{ type: 'text', text: 'restarted' }] };
});
`;

  it('reports a tool that starts a process with no check', async () => {
    const result = await prove({ 'src/index.ts': server('') });
    expect(result.findings.map((f) => `${f.entry.framework}:${f.operation.id}`)).toEqual(['mcp:ts.command-execution']);
  });

  it('is quiet when the tool refuses a caller without the admin scope', async () => {
    const result = await prove({ 'src/index.ts': server("  if (!extra.authInfo?.scopes.includes('admin')) {\n    throw new Error('admin scope required');\n  }") });
    expect(result.findings).toEqual([]);
  });
});
