// Preloaded by the benchmarks (node --require): reports the process's peak RSS and its own CPU time
// (user + system, without child processes) on exit, on stderr.
process.on('exit', () => {
  const usage = process.resourceUsage();
  process.stderr.write(`\nJSCR_BENCH_MAXRSS_KB=${usage.maxRSS}\nJSCR_BENCH_CPU_US=${usage.userCPUTime + usage.systemCPUTime}\n`);
});
