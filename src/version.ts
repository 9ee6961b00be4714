/** node-check's version: injected by the bundler (scripts/build.mjs); "dev" when run from source. */
declare const NODE_CHECK_VERSION: string | undefined;

export const VERSION: string = typeof NODE_CHECK_VERSION === 'string' ? NODE_CHECK_VERSION : '0.0.0-dev';
