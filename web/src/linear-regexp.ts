// The task form checks the agent's `pattern`s with the same linear-time engine as the server (RE2's
// algorithm, services/input-schema.ts), instead of the browser's backtracking one: a pattern such as
// ^(a+)+$ against a long value froze the requester's tab for seconds. A pattern RE2 cannot run is left
// to the server's answer (it refuses such schemas when the agent is saved).
import { RE2JS } from 're2js';

export function linearRegExp(pattern: string): { test(s: string): boolean } {
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern);
  } catch {
    return { test: () => true };
  }
  return { test: (s) => compiled.test(s) };
}
// Ajv asks its regExp engine for the code that names it (used only by standalone code generation).
linearRegExp.code = 'linearRegExp';
