/** scripts/vite-oracle-checks.mjs: [built-in id, release, redis-server, level] per agreeing recording */
declare module 'virtual:oracle-checks' {
  const agreeing: readonly (readonly [string, string, string, string])[];
  export default agreeing;
}
