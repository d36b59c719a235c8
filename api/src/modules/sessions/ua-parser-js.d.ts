/** The part of ua-parser-js 1.x this module reads (the package ships no types; 2.x is AGPL). */
declare module 'ua-parser-js' {
  interface UAResult {
    browser: { name?: string; version?: string };
    os: { name?: string; version?: string };
    device: { type?: string; vendor?: string; model?: string };
  }
  const UAParser: (ua?: string) => UAResult;
  export default UAParser;
}
