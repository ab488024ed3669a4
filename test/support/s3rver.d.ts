// s3rver ships no types; the part the tests use.
declare module 's3rver' {
  export default class S3rver {
    constructor(options: { address?: string; port?: number; silent?: boolean; directory: string; configureBuckets?: Array<{ name: string; configs: Array<string | Buffer> }> });
    run(): Promise<unknown>;
    close(): Promise<void>;
  }
}
