/**
 * Benchmark of the prover's whole-repository mode on a generated repository of 2,000 Java files
 * (Jenkins-style descriptors, actions and services calling each other, with credential lookups, file
 * writes and permission checks spread among them). Prints seconds and peak RSS; the target is under
 * 20 s and 1 GB. Run: `npx tsx bench/prove.ts [files]`.
 */
import { proveChange } from '../src/prover/prove.js';

const FILES = Number(process.argv[2] ?? 2000);

function service(i: number): string {
  const next = (i * 7 + 3) % FILES;
  return `package org.bench.svc${i % 50};

import java.nio.file.Files;
import java.util.List;

public class Service${i} {
    private final Service${next} next = new Service${next}();
    private final java.util.Map<String, String> cache = new java.util.HashMap<>();

    public String lookup(String id) {
        if (id == null) {
            return null;
        }
        String value = cache.get(id);
        if (value != null) {
            return value;
        }
        ${i % 5 === 0 ? 'List<C> all = CredentialsProvider.lookupCredentials(C.class, Jenkins.get(), ACL.SYSTEM, List.of());' : 'int all = id.length();'}
        cache.put(id, String.valueOf(all));
        return next.transform(id);
    }

    public String transform(String id) {
        StringBuilder out = new StringBuilder();
        for (char c : id.toCharArray()) {
            out.append(Character.toUpperCase(c));
        }
        ${i % 7 === 0 ? 'Files.delete(java.nio.file.Path.of(id));' : 'out.reverse();'}
        return out.toString();
    }

    public void transform(String id, int times) {
        for (int k = 0; k < times; k++) {
            transform(id);
        }
    }
}
`;
}

function descriptor(i: number): string {
  const guarded = i % 3 === 0;
  return `package org.bench.ui${i % 50};

public class Step${i} extends Builder {
    @Extension
    public static class DescriptorImpl extends BuildStepDescriptor<Builder> {
        public FormValidation doTestConnection(@QueryParameter String endpoint, @QueryParameter String credentialsId) {
            ${guarded ? 'Jenkins.get().checkPermission(Jenkins.ADMINISTER);' : ''}
            String found = new Service${(i * 11) % FILES}().lookup(credentialsId);
            return found == null ? FormValidation.error("none") : FormValidation.ok();
        }

        public FormValidation doCheckName(@QueryParameter String value) {
            if (value == null || value.isEmpty()) {
                return FormValidation.error("empty");
            }
            return FormValidation.ok();
        }

        public ListBoxModel doFillCredentialsIdItems(@AncestorInPath Item item) {
            ListBoxModel model = new ListBoxModel();
            if (item == null || !item.hasPermission(Item.CONFIGURE)) {
                return model;
            }
            return model;
        }

        @Override
        public String getDisplayName() {
            return "Step ${i}";
        }
    }
}
`;
}

const files: { path: string; text: string }[] = [];
for (let i = 0; i < FILES; i++) {
  files.push(i % 2 === 0 ? { path: `src/main/java/org/bench/svc${i % 50}/Service${i}.java`, text: service(i) } : { path: `src/main/java/org/bench/ui${i % 50}/Step${i}.java`, text: descriptor(i) });
}
// Services referenced by odd indexes must exist: give every index a service class too.
for (let i = 1; i < FILES; i += 2) files.push({ path: `src/main/java/org/bench/svc${i % 50}/Service${i}.java`, text: service(i) });
files.splice(FILES); // exactly FILES files
const bytes = files.reduce((n, f) => n + f.text.length, 0);

const started = performance.now();
const result = await proveChange({ root: '/bench', files, touched: null, maxDepth: 3, fanOut: 25 });
const seconds = (performance.now() - started) / 1000;
const peakMb = process.resourceUsage().maxRSS / 1024;
process.stdout.write(
  `prove whole-repository: ${files.length} Java files (${(bytes / 1024 / 1024).toFixed(1)} MB), ${result.coverage.entryPoints} entries, ` +
    `${result.coverage.operationsChecked} operations checked, ${result.findings.length} findings\n` +
    `seconds: ${seconds.toFixed(2)}\npeak RSS: ${peakMb.toFixed(0)} MB\ntarget: under 20 s and 1024 MB: ${seconds < 20 && peakMb < 1024 ? 'met' : 'NOT met'}\n`,
);
