// Preloaded by the benchmarks (node --require): reports the process's peak RSS on exit, on stderr.
process.on('exit', () => {
  process.stderr.write(`\nJSCR_BENCH_MAXRSS_KB=${process.resourceUsage().maxRSS}\n`);
});
