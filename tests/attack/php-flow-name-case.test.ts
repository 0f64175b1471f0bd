/**
 * Data flow reads PHP names as PHP does, in any case: an escaper written `HtmlSpecialChars` escapes, a
 * sink written `SyStEm` is a sink however the value reached it, and a project function is the same
 * function whatever case a call spells it in. Variables are case-sensitive in PHP and stay apart.
 */
import { describe, expect, it } from 'vitest';
import { hostileChangeReviewer } from './helpers.js';

const review = hostileChangeReviewer();

describe('attack: PHP names in another case, to data flow', () => {
  it('an escaper, a project escaper and a method written in another case escape: no finding', async () => {
    const result = await review({
      'show.php': '<?php\nfunction show() {\n    ECHO HtmlSpecialChars($_GET["name"]);\n}\n',
      // (the request value goes through a variable: the pattern rule on `echo ... $_GET` knows no project escaper)
      'helper.php': '<?php\nfunction Clean($v) { return htmlspecialchars($v, ENT_QUOTES); }\nfunction show() {\n    $name = $_GET["name"];\n    echo CLEAN($name);\n}\n',
      'page.php':
        '<?php\nclass Page {\n    private function escape($v) { return htmlentities($v); }\n    public function show() {\n        $title = $_POST["title"];\n        print $this->ESCAPE($title);\n    }\n}\n',
    });
    expect(result.where).toEqual([]);
    expect(result.code).toBe(0);
  });

  it('a sink in another case fed through variables, or through a project function called in another case, is a data-flow finding', async () => {
    const result = await review({
      'run.php': '<?php\nfunction run() {\n    $dir = $_GET["dir"];\n    $cmd = "ls " . $dir;\n    SyStEm($cmd);\n}\n',
      'wrap.php': '<?php\nfunction Runner($c) { return Shell_Exec($c); }\nfunction go() {\n    $c = $_POST["c"];\n    return RUNNER($c);\n}\n',
      'xml.php': '<?php\nfunction parse() {\n    $xml = $_POST["xml"];\n    return new simplexmlelement($xml, LIBXML_NOENT);\n}\n',
    });
    expect(result.code).toBe(1);
    const byFlow = result.findings.filter((f) => f.source === 'flow').map((f) => `${f.path}:${f.line}`);
    expect(byFlow).toContain('run.php:5');
    expect(byFlow.some((at) => at.startsWith('wrap.php:'))).toBe(true);
    expect(byFlow).toContain('xml.php:4');
  });

  it('what PHP keeps apart stays apart: $Input and $input, the function file() and new File, the function user() and class User', async () => {
    const result = await review({
      'vars.php': '<?php\nfunction run() {\n    $Input = $_GET["c"];\n    $input = "ls -l";\n    SYSTEM($input);\n    echo $Input === "" ? "none" : "some";\n}\n',
      'upload.php': '<?php\nfunction size() {\n    $name = $_GET["name"];\n    $upload = new File($name);\n    return $upload->size;\n}\n',
      'user.php':
        '<?php\nclass User {\n    public function __construct($n) { echo $n; }\n}\nfunction user($n) { return htmlspecialchars($n); }\nfunction show() {\n    $n = $_GET["n"];\n    echo user($n);\n}\n',
    });
    expect(result.where).toEqual([]);
  });
});
