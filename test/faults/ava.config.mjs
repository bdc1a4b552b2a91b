// The multi-process fault suite (test/faults): one file at a time, after the main suite (npm test),
// since each file starts five processes. The main configuration in package.json leaves it out.
export default {
  extensions: { ts: 'module' },
  nodeArguments: ['--import=tsx'],
  files: ['test/faults/**/*.test.ts'],
  timeout: '300s',
  concurrency: 1,
  workerThreads: false,
};
