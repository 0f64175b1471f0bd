/**
 * Engine semantics added for the idioms of the held-out Python and Java cases (docs/flow.md, "Held-out
 * cases"), each checked here on code written differently from those cases: helpers with default and
 * keyword parameters, XML parsers judged inside helpers, a stream read on another line than the one it
 * was made on, library constants named on their class, and which properties file a class reads.
 */
import { describe, expect, it } from 'vitest';
import { analyseFile, lowerText, type FlowFinding } from '../../src/flow/index.js';
import { loadBuiltinFlowRows } from '../../src/rules/flow-load.js';
import { orderPropertiesFiles } from '../../src/review/steps/flow.js';

const rows = loadBuiltinFlowRows().byLanguage;

async function findings(language: 'python' | 'java', source: string): Promise<Array<Pick<FlowFinding, 'rowId' | 'line'>>> {
  const lowered = await lowerText(language === 'python' ? 'case.py' : 'Case.java', language, source, Date.now() + 10_000);
  if (lowered === null || !lowered.ok) throw new Error('did not lower');
  const languageRows = rows.get(language);
  if (languageRows === undefined) throw new Error(`no ${language} rows`);
  return analyseFile(lowered.file, { rows: languageRows }).findings.map((f) => ({ rowId: f.rowId, line: f.line }));
}

describe('Python helpers with default and keyword parameters', () => {
  const digest = (call: string) => `import hashlib

def checksum(payload, kind="sha1", rounds=1):
    return hashlib.new(kind, payload).hexdigest()

def store(blob):
    return ${call}
`;

  it('judges a value check inside the helper by the default the call leaves in place, and by the keyword it gives', async () => {
    expect(await findings('python', digest('checksum(blob)'))).toEqual([{ rowId: 'python-weak-hash-new', line: 4 }]);
    expect(await findings('python', digest('checksum(blob, rounds=3)'))).toEqual([{ rowId: 'python-weak-hash-new', line: 4 }]);
    expect(await findings('python', digest('checksum(blob, kind="blake2b")'))).toEqual([]);
    expect(await findings('python', digest('checksum(blob, "sha3_256")'))).toEqual([]);
  });

  it('carries request data handed by keyword into the helper it reaches a sink in', async () => {
    const source = `import subprocess
from flask import request

def archive(target, options="-czf"):
    subprocess.call("tar " + options + " /tmp/a.tgz " + target, shell=True)

def export_view():
    archive("/srv/data", options=request.args.get("opts", ""))
    return "ok"
`;
    expect(await findings('python', source)).toEqual([{ rowId: 'python-subprocess-shell', line: 5 }]);
    expect(await findings('python', source.replace('options=request.args.get("opts", "")', 'options="-cjf"'))).toEqual([]);
  });
});

describe('Java XML parsers and object streams in helpers', () => {
  const parserHelper = (setting: string, argument: string) => `import javax.xml.stream.*;
import java.io.InputStream;
import javax.servlet.http.*;
public class Feed extends HttpServlet {
  protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws Exception {
    resp.getWriter().print(entries(${argument}));
  }
  private static int entries(InputStream in) throws Exception {
    XMLInputFactory factory = XMLInputFactory.newFactory();
    ${setting}
    XMLEventReader events = factory.createXMLEventReader(in);
    int n = 0;
    while (events.hasNext()) { if (events.nextEvent().isStartElement()) n++; }
    return n;
  }
}
`;

  it('reports a parser without its safe settings in a helper at the helper, when a caller hands it request data', async () => {
    expect(await findings('java', parserHelper('', 'req.getInputStream()'))).toEqual([{ rowId: 'java-xml-external-entities', line: 11 }]);
    expect(await findings('java', parserHelper('', 'Feed.class.getResourceAsStream("/sample.xml")'))).toEqual([]);
  });

  it('reads a library constant named on its class as its value', async () => {
    expect(await findings('java', parserHelper('factory.setProperty(XMLInputFactory.SUPPORT_DTD, Boolean.FALSE);', 'req.getInputStream()'))).toEqual([]);
    expect(await findings('java', parserHelper('factory.setProperty(XMLInputFactory.IS_COALESCING, false);', 'req.getInputStream()'))).toEqual([{ rowId: 'java-xml-external-entities', line: 11 }]);
  });

  it('reports the read of an object stream made from request data on an earlier line, and not once a filter is set', async () => {
    const stream = (filter: string) => `import java.io.*;
import javax.servlet.http.*;
public class Restore extends HttpServlet {
  protected void doPut(HttpServletRequest req, HttpServletResponse resp) throws Exception {
    ObjectInputStream snapshot = open(req);
    ${filter}
    Object state = snapshot.readObject();
    resp.setStatus(state == null ? 400 : 204);
  }
  private ObjectInputStream open(HttpServletRequest req) throws IOException {
    return new ObjectInputStream(new BufferedInputStream(req.getInputStream()));
  }
}
`;
    expect(await findings('java', stream(''))).toEqual([{ rowId: 'java-deserialisation', line: 7 }]);
    expect(await findings('java', stream('snapshot.setObjectInputFilter(ObjectInputFilter.Config.createFilter("com.acme.State;!*"));'))).toEqual([]);
  });
});

describe('the properties file a class reads', () => {
  it('prefers the file the code names, then the one named like the class beside it, then the others beside it', () => {
    const files = [
      { dir: 'src/config', name: 'defaults.properties' },
      { dir: 'src/crypto', name: 'other.properties' },
      { dir: 'src/crypto', name: 'Sealer.properties' },
      { dir: 'src/crypto', name: 'named.properties' },
    ];
    const order = (text: string) => orderPropertiesFiles(files, 'src/crypto/Sealer.java', text).map((f) => f.name);
    expect(order('props.load(new FileInputStream(path));')).toEqual(['Sealer.properties', 'other.properties', 'named.properties', 'defaults.properties']);
    expect(order('getResourceAsStream("/named.properties")')[0]).toBe('named.properties');
  });
});
