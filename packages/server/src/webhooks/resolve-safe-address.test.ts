import { isIP } from "node:net";
import { describe, expect, it } from "vitest";
import { addressClass, BlockedAddressError, type HostLookup, HostLookupError, resolveSafeAddress } from "./index.js";

/** A resolver that answers every name with `addresses`, and fails the test if it is asked about a literal. */
function resolvesTo(...addresses: string[]): HostLookup {
  return async (hostname) => {
    expect(isIP(hostname)).toBe(0);
    return addresses.map((address) => ({ address, family: isIP(address) }));
  };
}

const noLookup: HostLookup = async () => {
  throw new Error("no lookup expected for a literal");
};

async function refusal(work: Promise<unknown>): Promise<BlockedAddressError> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(BlockedAddressError);
  expect((error as BlockedAddressError).code).toBe("blocked_address");
  return error as BlockedAddressError;
}

describe("resolveSafeAddress", () => {
  it.each([
    ["10.0.0.1", "private"],
    ["172.16.5.4", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["fd12:3456::1", "private"],
    ["127.0.0.1", "loopback"],
    ["127.1.2.3", "loopback"],
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["[::ffff:127.0.0.1]", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:10.1.2.3", "private"],
    ["::127.0.0.1", "loopback"],
    ["64:ff9b::a9fe:a9fe", "metadata"],
    ["2002:7f00:1::1", "loopback"],
    ["169.254.169.254", "metadata"],
    ["::ffff:a9fe:a9fe", "metadata"],
    ["fd00:ec2::254", "metadata"],
    ["100.100.100.200", "metadata"],
    ["169.254.1.1", "link_local"],
    ["fe80::1", "link_local"],
    ["100.64.0.1", "carrier_grade_nat"],
    ["0.0.0.0", "unspecified"],
    ["::", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["ff02::1", "multicast"],
    ["255.255.255.255", "reserved"],
    ["::ffff:8.8.8.8", "ipv4_mapped"],
  ])("refuses the literal %s (%s)", async (literal, reason) => {
    const error = await refusal(resolveSafeAddress(literal, [], noLookup));
    expect(error.reason).toBe(reason);
  });

  it("refuses a name that resolves to 127.0.0.1", async () => {
    const error = await refusal(resolveSafeAddress("hooks.example.com", [], resolvesTo("127.0.0.1")));
    expect(error).toMatchObject({ hostname: "hooks.example.com", address: "127.0.0.1", reason: "loopback" });
  });

  it("refuses a name when any one of its addresses is private", async () => {
    const error = await refusal(resolveSafeAddress("mixed.example.com", [], resolvesTo("93.184.216.34", "10.0.0.7")));
    expect(error.address).toBe("10.0.0.7");
    await refusal(resolveSafeAddress("mixed.example.com", [], resolvesTo("2606:4700::1111", "fe80::1")));
  });

  it("returns the first address of a public name, and a public literal as is", async () => {
    const lookup = resolvesTo("93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946");
    expect(await resolveSafeAddress("example.com", [], lookup)).toBe("93.184.216.34");
    expect(await resolveSafeAddress("8.8.8.8", [], noLookup)).toBe("8.8.8.8");
    expect(await resolveSafeAddress("[2606:4700::1111]", [], noLookup)).toBe("2606:4700::1111");
    expect(await resolveSafeAddress("2002:808:808::1", [], noLookup)).toBe("2002:808:808::1");
    expect(addressClass("172.32.0.1")).toBeUndefined();
    expect(addressClass("100.128.0.1")).toBeUndefined();
  });

  it("lets allowed hosts reach loopback and private addresses", async () => {
    const allow = ["127.0.0.1", "localhost", "[::1]", "Hooks.Internal."];
    expect(await resolveSafeAddress("127.0.0.1", allow, noLookup)).toBe("127.0.0.1");
    expect(await resolveSafeAddress("[::1]", allow, noLookup)).toBe("::1");
    expect(await resolveSafeAddress("localhost", allow, resolvesTo("::1", "127.0.0.1"))).toBe("::1");
    expect(await resolveSafeAddress("hooks.internal", allow, resolvesTo("10.0.0.1"))).toBe("10.0.0.1");
    await refusal(resolveSafeAddress("127.0.0.2", allow, noLookup));
    await refusal(resolveSafeAddress("other.internal", allow, resolvesTo("10.0.0.1")));
  });

  it("keeps link-local and metadata addresses refused even for allowed hosts", async () => {
    const allow = ["169.254.169.254", "fe80::1", "localhost", "100.100.100.200"];
    expect((await refusal(resolveSafeAddress("169.254.169.254", allow, noLookup))).reason).toBe("metadata");
    expect((await refusal(resolveSafeAddress("100.100.100.200", allow, noLookup))).reason).toBe("metadata");
    expect((await refusal(resolveSafeAddress("[fe80::1]", allow, noLookup))).reason).toBe("link_local");
    const rebound = resolvesTo("127.0.0.1", "169.254.169.254");
    expect((await refusal(resolveSafeAddress("localhost", allow, rebound))).reason).toBe("metadata");
  });

  it("reports a name that does not resolve as dns_failed", async () => {
    const failing: HostLookup = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND nowhere.invalid"), { code: "ENOTFOUND" });
    };
    await expect(resolveSafeAddress("nowhere.invalid", [], failing)).rejects.toMatchObject({
      code: "dns_failed",
      message: "cannot resolve nowhere.invalid: ENOTFOUND",
    });
    await expect(resolveSafeAddress("empty.example.com", [], resolvesTo())).rejects.toBeInstanceOf(HostLookupError);
  });

  it("refuses localhost through the system resolver", async () => {
    await refusal(resolveSafeAddress("localhost", []));
  });
});
