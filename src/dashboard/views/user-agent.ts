/** A user agent in words ("Chrome 120 on macOS"); the raw string stays available as a tooltip. */
const BROWSERS: [RegExp, string][] = [
  [/Edg(?:e|A|iOS)?\/(\d+)/, "Edge"],
  [/OPR\/(\d+)/, "Opera"],
  [/Firefox\/(\d+)/, "Firefox"],
  [/FxiOS\/(\d+)/, "Firefox"],
  [/CriOS\/(\d+)/, "Chrome"],
  [/HeadlessChrome\/(\d+)/, "Headless Chrome"],
  [/Chrom(?:e|ium)\/(\d+)/, "Chrome"],
  [/Version\/(\d+)(?:\.\d+)*.*Safari\//, "Safari"],
  [/curl\/(\d+)/, "curl"],
];
const SYSTEMS: [RegExp, string][] = [
  [/iPhone|iPad|iPod/, "iOS"],
  [/Android/, "Android"],
  [/CrOS/, "ChromeOS"],
  [/Windows/, "Windows"],
  [/Mac OS X|Macintosh/, "macOS"],
  [/Linux/, "Linux"],
];

export function describeUserAgent(ua: string | null | undefined): string {
  if (!ua) return "unknown device";
  const browser = BROWSERS.map(([re, name]) => [re.exec(ua), name] as const).find(([m]) => m);
  const system = SYSTEMS.find(([re]) => re.test(ua))?.[1];
  const b = browser ? `${browser[1]} ${browser[0]![1]}` : null;
  if (b && system) return `${b} on ${system}`;
  return b ?? system ?? (ua.length > 40 ? `${ua.slice(0, 40)}…` : ua);
}
