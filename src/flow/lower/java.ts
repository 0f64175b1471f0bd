/** The Java front end: lowers a tree-sitter-java tree to the flow IR (src/flow/ir.ts). */
import type { FlowFile, FlowFrontEnd } from '../ir.js';

export const javaFrontEnd: FlowFrontEnd = {
  languages: ['java'],
  lower({ path, language }): FlowFile {
    return { path, language, functions: [], classes: [], imports: {}, degradations: ['the Java front end is not written yet'] };
  },
};
