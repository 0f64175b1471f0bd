/**
 * The lexer core of batch files: cmd reads them line by line, and only REM lines (after optional
 * blanks and `@`, followed by a blank or the end of the line) are comments. `::` labels are code,
 * since they change how a block is parsed.
 */
import { splitLines } from './chars.js';

export interface BatchLine {
  text: string;
  kind: 'blank' | 'remark' | 'code';
  /** Remarks: the text after `REM`. */
  body: string;
}

export function batchLines(text: string): BatchLine[] {
  return splitLines(text).map((line) => {
    let i = 0;
    while (line[i] === ' ' || line[i] === '\t') i++;
    if (i === line.length) return { text: line, kind: 'blank', body: '' };
    let j = i;
    if (line[j] === '@') {
      j++;
      while (line[j] === ' ' || line[j] === '\t') j++;
    }
    const after = line[j + 3];
    if (line.slice(j, j + 3).toLowerCase() === 'rem' && (after === undefined || after === ' ' || after === '\t')) {
      return { text: line, kind: 'remark', body: line.slice(j + 3) };
    }
    return { text: line, kind: 'code', body: '' };
  });
}
