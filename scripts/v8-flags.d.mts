// Types of scripts/v8-flags.mjs, for the benchmarks that start the service with its flags.
export declare const V8_FLAGS: readonly string[];
export declare function flagName(flag: string): string;
