import { BlockList, isIPv4, isIPv6 } from "node:net";

/** Why an address is no place for a webhook; `undefined` from {@link addressClass} means public. */
export type AddressClass =
  | "metadata"
  | "link_local"
  | "loopback"
  | "private"
  | "carrier_grade_nat"
  | "unspecified"
  | "multicast"
  | "reserved"
  | "ipv4_mapped";

/** Checked in this order, so a metadata address inside a link-local or private range is called metadata. */
const RANGES: readonly [AddressClass, readonly [string, number][]][] = [
  [
    "metadata",
    [
      ["169.254.169.254", 32],
      ["100.100.100.200", 32],
      ["fd00:ec2::254", 128],
    ],
  ],
  [
    "unspecified",
    [
      ["0.0.0.0", 8],
      ["::", 128],
    ],
  ],
  [
    "loopback",
    [
      ["127.0.0.0", 8],
      ["::1", 128],
    ],
  ],
  [
    "link_local",
    [
      ["169.254.0.0", 16],
      ["fe80::", 10],
    ],
  ],
  [
    "private",
    [
      ["10.0.0.0", 8],
      ["172.16.0.0", 12],
      ["192.168.0.0", 16],
      ["fc00::", 7],
      ["fec0::", 10],
    ],
  ],
  ["carrier_grade_nat", [["100.64.0.0", 10]]],
  [
    "multicast",
    [
      ["224.0.0.0", 4],
      ["ff00::", 8],
    ],
  ],
  ["reserved", [["240.0.0.0", 4]]],
];

const LISTS = RANGES.map(([kind, ranges]) => {
  const list = new BlockList();
  for (const [network, prefix] of ranges) list.addSubnet(network, prefix, isIPv4(network) ? "ipv4" : "ipv6");
  return [kind, list] as const;
});

/**
 * The class of a literal IPv4 or IPv6 address (a `%zone` is ignored), or `undefined` for a public one.
 * IPv6 forms that carry an IPv4 address are judged by it: IPv4-mapped `::ffff:a.b.c.d` (either spelling;
 * refused as `ipv4_mapped` even when the IPv4 is public), IPv4-compatible `::a.b.c.d`, NAT64 `64:ff9b::/96`
 * and 6to4 `2002::/16`. Anything that is not an IP address is `reserved`.
 */
export function addressClass(address: string): AddressClass | undefined {
  const ip = address.replace(/%.*$/, "");
  if (isIPv4(ip)) return lookUp(ip, "ipv4");
  if (!isIPv6(ip)) return "reserved";
  const groups = ipv6Groups(ip);
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) return lookUp(ipv4(groups[6], groups[7]), "ipv4") ?? "ipv4_mapped";
  const compatible = groups.slice(0, 6).every((g) => g === 0); // also `::` and `::1`, found as such first
  if (compatible) return lookUp(ip, "ipv6") ?? lookUp(ipv4(groups[6], groups[7]), "ipv4") ?? "reserved";
  const nat64 = groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0);
  if (nat64) return lookUp(ipv4(groups[6], groups[7]), "ipv4");
  if (groups[0] === 0x2002) return lookUp(ipv4(groups[1], groups[2]), "ipv4");
  return lookUp(ip, "ipv6");
}

function lookUp(ip: string, family: "ipv4" | "ipv6"): AddressClass | undefined {
  return LISTS.find(([, list]) => list.check(ip, family))?.[0];
}

function ipv4(high = 0, low = 0): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
}

/** The eight 16-bit groups of a valid IPv6 address, a trailing dotted IPv4 counting as two. */
function ipv6Groups(ip: string): number[] {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(ip);
  let text = ip;
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${ip.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const parts = (part: string) => (part === "" ? [] : part.split(":").map((g) => Number.parseInt(g, 16)));
  const before = parts(head);
  const after = tail === undefined ? [] : parts(tail);
  return [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
}
