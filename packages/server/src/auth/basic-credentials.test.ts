import { describe, expect, it } from "vitest";
import { MalformedBasicError, parseBasicCredentials } from "./basic-credentials.js";

const encode = (text: string) => Buffer.from(text, "utf8").toString("base64");

describe("parseBasicCredentials", () => {
  it("splits user and password at the first colon, so the password keeps its own colons", () => {
    expect(parseBasicCredentials(`Basic ${encode("org_1:se:cr:et:")}`)).toEqual({
      username: "org_1",
      password: "se:cr:et:",
    });
  });

  it("accepts an empty password and a case-insensitive scheme with extra spaces", () => {
    expect(parseBasicCredentials(`basic   ${encode("user:")}`)).toEqual({ username: "user", password: "" });
    expect(parseBasicCredentials(`BASIC ${encode("user:pw")}`)).toEqual({ username: "user", password: "pw" });
  });

  it("decodes UTF-8 in either half", () => {
    expect(parseBasicCredentials(`Basic ${encode("zoë:pässwörd")}`)).toEqual({
      username: "zoë",
      password: "pässwörd",
    });
  });

  it("leaves percent signs and plus signs alone without formEncoded", () => {
    expect(parseBasicCredentials(`Basic ${encode("cl%5Fid:a+b%3Ac")}`)).toEqual({
      username: "cl%5Fid",
      password: "a+b%3Ac",
    });
  });

  it("form-decodes both halves with formEncoded (RFC 6749 Appendix B)", () => {
    expect(parseBasicCredentials(`Basic ${encode("cl%5Fid:a+b%3Ac%25")}`, { formEncoded: true })).toEqual({
      username: "cl_id",
      password: "a b:c%",
    });
  });

  it("splits before form-decoding, so an encoded colon in the user name stays in the user name", () => {
    expect(parseBasicCredentials(`Basic ${encode("a%3Ab:c")}`, { formEncoded: true })).toEqual({
      username: "a:b",
      password: "c",
    });
  });

  it("throws MalformedBasicError for an invalid percent escape with formEncoded", () => {
    expect(() => parseBasicCredentials(`Basic ${encode("user:%E0%A4%A")}`, { formEncoded: true })).toThrow(
      MalformedBasicError,
    );
    expect(() => parseBasicCredentials(`Basic ${encode("us%zzer:pw")}`, { formEncoded: true })).toThrow(
      MalformedBasicError,
    );
  });

  it("returns undefined without a header or for another scheme", () => {
    expect(parseBasicCredentials(undefined)).toBeUndefined();
    expect(parseBasicCredentials("")).toBeUndefined();
    expect(parseBasicCredentials(`Bearer ${encode("user:pw")}`)).toBeUndefined();
    expect(parseBasicCredentials('Digest username="user"')).toBeUndefined();
    expect(parseBasicCredentials(`Basicx ${encode("user:pw")}`, { formEncoded: true })).toBeUndefined();
  });

  it("throws MalformedBasicError when the Basic value is missing or not base64", () => {
    for (const header of ["Basic", "Basic ", "Basic not*base64", "Basic dXNlcjpwdw", "Basic dXNl=cjpw", "Basic ===="]) {
      expect(() => parseBasicCredentials(header), header).toThrow(MalformedBasicError);
    }
  });

  it("throws MalformedBasicError when the decoded value has no colon", () => {
    expect(() => parseBasicCredentials(`Basic ${encode("userpassword")}`)).toThrow(
      new MalformedBasicError("the Basic credentials lack the colon between user and password"),
    );
    expect(() => parseBasicCredentials(`Basic ${encode("userpassword")}`, { formEncoded: true })).toThrow(
      MalformedBasicError,
    );
  });
});
