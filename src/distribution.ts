/**
 * Where jscr is published, in one place: the npm package users install and the GitHub Action their
 * workflows use. The README, `jscr init` and the SARIF `informationUri` all name these.
 */

/** The npm package (scoped, so nobody else can publish under the name our docs tell people to run). */
export const PACKAGE_NAME = '@jscr/cli';

/** The GitHub Action, pinned to its major version. */
export const ACTION_REF = 'jscr-dev/jscr@v0';

/** The package's page, for tools that link to where jscr is described. */
export const PACKAGE_PAGE = `https://www.npmjs.com/package/${PACKAGE_NAME}`;
