import { join, resolve, sep } from 'node:path';

/**
 * The project's root as it is checked out. Stryker runs the unit tests in a copy of the project
 * (`.stryker-tmp/sandbox-…`) whose sources it has instrumented; a test that reads sources as text
 * (strings to translate, tables, endpoint lists) must read them as written, so inside the copy this
 * is the root the copy was made from. Unit tests find the project through this, never `__dirname`
 * (`test/unit/projectRoot.test.ts` checks).
 */
const here = resolve(__dirname, '..', '..');
const sandbox = `${sep}.stryker-tmp${sep}`;

export const projectRoot = here.includes(sandbox) ? here.slice(0, here.indexOf(sandbox)) : here;

export function projectPath(...parts: string[]): string {
  return join(projectRoot, ...parts);
}
