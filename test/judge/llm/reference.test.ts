import { describe, expect, it } from "vitest";
import { parseReference, splitReference } from "../../../src/judge/reference";

describe("splitReference (SPEC 4.1 context.reference)", () => {
  it("separates a valid reference from CONTEXT", () => {
    const r = splitReference({ prices: { BTC: 1 }, reference: { source: "  blog  ", excerpt: "  text  " } });
    expect(r.context).toEqual({ prices: { BTC: 1 } });
    expect(r.reference).toEqual({ source: "blog", excerpt: "text" });
  });

  it("source is optional", () => {
    const r = splitReference({ reference: { excerpt: "only excerpt" } });
    expect(r.reference).toEqual({ excerpt: "only excerpt" });
    expect(r.context).toEqual({});
    expect(r.reference).not.toHaveProperty("source");
  });

  it("trims the excerpt and removes fence markers", () => {
    const r = splitReference({ reference: { excerpt: "\n  ```json\nrun ``` this ~~~~ now\n```  \n" } });
    expect(r.reference?.excerpt).toBe("json\nrun  this  now");
    expect(r.reference?.excerpt).not.toMatch(/```|~~~/);
  });

  it("keeps single and double backticks and tildes (not fence markers)", () => {
    const r = splitReference({ reference: { excerpt: "a `b` ``c`` ~d~ ~~e~~" } });
    expect(r.reference?.excerpt).toBe("a `b` ``c`` ~d~ ~~e~~");
  });

  it("does not cut an excerpt of exactly 4,000 characters", () => {
    const ex = "x".repeat(4000);
    expect(splitReference({ reference: { excerpt: ex } }).reference?.excerpt).toBe(ex);
  });

  it("cuts an excerpt of 4,001 characters at 4,000 and appends [...]", () => {
    const ex = "y".repeat(3999) + "zQ";
    const got = splitReference({ reference: { excerpt: ex } }).reference?.excerpt;
    expect(got).toBe("y".repeat(3999) + "z" + "[...]");
    expect(got).toHaveLength(4005);
  });

  it("trims before cutting (surrounding whitespace does not count)", () => {
    const ex = `   ${"x".repeat(4000)}   `;
    expect(splitReference({ reference: { excerpt: ex } }).reference?.excerpt).toBe("x".repeat(4000));
  });

  it("removes fence markers before cutting", () => {
    const ex = "```" + "x".repeat(4000);
    expect(splitReference({ reference: { excerpt: ex } }).reference?.excerpt).toBe("x".repeat(4000));
  });

  it("counts characters as code points (never splits a surrogate pair)", () => {
    const ex = "😀".repeat(4001);
    const got = splitReference({ reference: { excerpt: ex } }).reference!.excerpt;
    expect(Array.from(got)).toHaveLength(4000 + 5);
    expect(got.endsWith("😀[...]")).toBe(true);
  });

  it("trims source, removes fence markers and cuts it at 300 characters without a mark", () => {
    expect(parseReference({ excerpt: "e", source: "  ~~~src```  " })?.source).toBe("src");
    expect(parseReference({ excerpt: "e", source: "s".repeat(300) })?.source).toBe("s".repeat(300));
    expect(parseReference({ excerpt: "e", source: "s".repeat(301) })?.source).toBe("s".repeat(300));
    expect(parseReference({ excerpt: "e", source: "   " })).toEqual({ excerpt: "e" });
  });

  it.each([
    ["missing excerpt", { source: "x" }],
    ["excerpt not a string", { excerpt: 42 }],
    ["excerpt null", { excerpt: null }],
    ["excerpt an object", { excerpt: { text: "hi" } }],
    ["blank excerpt", { excerpt: "   \n\t " }],
    ["empty excerpt", { excerpt: "" }],
    ["source not a string", { excerpt: "ok", source: 7 }],
    ["source null", { excerpt: "ok", source: null }],
    ["an array", [{ excerpt: "ok" }]],
    ["a string", "some text"],
    ["null", null],
    ["a number", 3],
  ])("leaves a reference of another shape in CONTEXT: %s", (_name, ref) => {
    const ctx = { prices: { ETH: 3400 }, reference: ref };
    const r = splitReference(ctx);
    expect(r.reference).toBeNull();
    expect(r.context).toEqual(ctx);
  });

  it("returns context unchanged when there is no reference, null for no context", () => {
    expect(splitReference({ a: 1 })).toEqual({ context: { a: 1 }, reference: null });
    expect(splitReference(null)).toEqual({ context: null, reference: null });
    expect(splitReference(undefined)).toEqual({ context: null, reference: null });
  });

  it("does not mutate the caller's object", () => {
    const ctx = { a: 1, reference: { excerpt: "x" } };
    splitReference(ctx);
    expect(ctx).toEqual({ a: 1, reference: { excerpt: "x" } });
  });

  it("drops keys other than source and excerpt of a valid reference", () => {
    const r = splitReference({ reference: { excerpt: "x", url: "http://e" } });
    expect(r.reference).toEqual({ excerpt: "x" });
    expect(r.context).toEqual({});
  });
});
