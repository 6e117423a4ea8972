import { describe, expect, it } from "vitest";
import { callbackUrlAllowed } from "./index.js";

describe("callbackUrlAllowed", () => {
  const hooks = ["https://a.example.com/hooks"];

  it("admits the prefix itself and paths below it", () => {
    expect(callbackUrlAllowed("https://a.example.com/hooks", hooks)).toBe(true);
    expect(callbackUrlAllowed("https://a.example.com/hooks/orders", hooks)).toBe(true);
    expect(callbackUrlAllowed("https://a.example.com/hooks/", hooks)).toBe(true);
    expect(callbackUrlAllowed("https://a.example.com/hooks?tenant=7", hooks)).toBe(true);
    expect(callbackUrlAllowed("HTTPS://A.EXAMPLE.COM:443/hooks/x", hooks)).toBe(true);
  });

  it("admits only at a path segment boundary", () => {
    expect(callbackUrlAllowed("https://a.example.com/hooks2", hooks)).toBe(false);
    expect(callbackUrlAllowed("https://a.example.com/hooksx/y", hooks)).toBe(false);
    expect(callbackUrlAllowed("https://a.example.com/hook", hooks)).toBe(false);
    expect(callbackUrlAllowed("https://a.example.com/other", hooks)).toBe(false);
    expect(callbackUrlAllowed("https://a.example.com/hooks/../admin", hooks)).toBe(false);
    expect(callbackUrlAllowed("https://a.example.com/hooks/%2e%2e/admin", hooks)).toBe(false);
    expect(callbackUrlAllowed("https://a.example.com/x/y", ["https://a.example.com/x/"])).toBe(true);
    expect(callbackUrlAllowed("https://a.example.com/xy", ["https://a.example.com/x/"])).toBe(false);
  });

  it("refuses a host that merely starts with the prefix's host", () => {
    const origin = ["https://a.example.com"];
    expect(callbackUrlAllowed("https://a.example.com/anything", origin)).toBe(true);
    expect(callbackUrlAllowed("https://a.example.com.evil.net/", origin)).toBe(false);
    expect(callbackUrlAllowed("https://a.example.com.evil.net/hooks", hooks)).toBe(false);
    expect(callbackUrlAllowed("https://a.example.com:8443/", origin)).toBe(false);
    expect(callbackUrlAllowed("https://evil.net/a.example.com", origin)).toBe(false);
    expect(callbackUrlAllowed("https://evil.net\\@a.example.com/", origin)).toBe(false);
  });

  it("refuses credentials, fragments and other schemes", () => {
    const origin = ["https://a.example.com"];
    expect(callbackUrlAllowed("https://user:pw@a.example.com/", origin)).toBe(false);
    expect(callbackUrlAllowed("https://user@a.example.com/", origin)).toBe(false);
    expect(callbackUrlAllowed("https://a.example.com/#x", origin)).toBe(false);
    expect(callbackUrlAllowed("https://a.example.com/#", origin)).toBe(false);
    expect(callbackUrlAllowed("ftp://a.example.com/", origin)).toBe(false);
    expect(callbackUrlAllowed("not a url", origin)).toBe(false);
  });

  it("keeps http and https apart", () => {
    expect(callbackUrlAllowed("http://a.example.com/hooks", hooks)).toBe(false);
    expect(callbackUrlAllowed("https://a.example.com/hooks", ["http://a.example.com/hooks"])).toBe(false);
    expect(callbackUrlAllowed("http://a.example.com/hooks", ["http://a.example.com/hooks"])).toBe(true);
  });

  it("holds a URL to a prefix's query when it has one", () => {
    const withQuery = ["https://a.example.com/in?tenant=7"];
    expect(callbackUrlAllowed("https://a.example.com/in?tenant=7", withQuery)).toBe(true);
    expect(callbackUrlAllowed("https://a.example.com/in?tenant=7&x=1", withQuery)).toBe(true);
    expect(callbackUrlAllowed("https://a.example.com/in?tenant=70", withQuery)).toBe(false);
    expect(callbackUrlAllowed("https://a.example.com/in/sub?tenant=7", withQuery)).toBe(false);
  });

  it("tries every prefix and ignores unparseable ones", () => {
    const prefixes = ["nonsense", "https://b.example.com/", " https://a.example.com/hooks "];
    expect(callbackUrlAllowed("https://a.example.com/hooks/1", prefixes)).toBe(true);
    expect(callbackUrlAllowed("https://b.example.com/x", prefixes)).toBe(true);
    expect(callbackUrlAllowed("https://c.example.com/x", prefixes)).toBe(false);
    expect(callbackUrlAllowed("https://a.example.com/hooks", [])).toBe(false);
  });
});
