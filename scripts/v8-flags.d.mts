// Types of scripts/v8-flags.mjs, for the benchmarks and tests that use the service's flags.
export declare const V8_FLAGS: readonly string[];
export declare function flagsToSet(execArgv: readonly string[], nodeOptions?: string): string[];
