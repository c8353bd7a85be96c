// How Node runs the built server (`npm run serve`, the e2e journeys, the benchmarks): keep in step with the
// `serve` script in package.json. docs/decisions.md says why each flag is there.
export const SERVER_NODE_FLAGS = ['--single-threaded-gc', '--max-semi-space-size=8', '--expose-gc'];
