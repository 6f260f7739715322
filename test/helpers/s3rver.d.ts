// The little of s3rver (a local S3-compatible server, a dev dependency without types) the S3 tests use.
declare module 's3rver' {
  import type { AddressInfo } from 'node:net';
  interface Options {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    configureBuckets?: { name: string }[];
  }
  export default class S3rver {
    constructor(options: Options);
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
