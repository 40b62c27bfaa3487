import { createSocket, type Socket } from "node:dgram";
import { isIPv4, isIPv6 } from "node:net";

// A tiny authoritative DNS server over UDP for the dns monitor's tests (RFC 1035 encoding by hand):
// A, AAAA, CNAME, MX and TXT answers from a zone, NXDOMAIN for unknown names, NOERROR without
// answers for a known name without records of the type; a name can be made to fail (SERVFAIL) or
// to get no answer at all (the resolver times out).

export type TestRecord =
  | { type: "A" | "AAAA" | "CNAME"; value: string }
  | { type: "MX"; priority: number; exchange: string }
  | { type: "TXT"; value: string };

export interface TestZone {
  [name: string]: TestRecord[] | "servfail" | "silent";
}

export interface TestDnsServer {
  /** "127.0.0.1:port", as a dns monitor's `resolver` takes it. */
  resolver: string;
  /** The names asked so far, as "TYPE name". */
  asked: string[];
  close(): Promise<void>;
}

const TYPES = { A: 1, CNAME: 5, MX: 15, TXT: 16, AAAA: 28 } as const;
const TYPE_NAMES = new Map<number, string>(Object.entries(TYPES).map(([k, v]) => [v, k]));

function encodeName(name: string): Buffer {
  const labels = name.replace(/\.$/, "").split(".").filter(Boolean);
  return Buffer.concat([
    ...labels.map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label)])),
    Buffer.from([0]),
  ]);
}

function ipv6Bytes(address: string): Buffer {
  const [head = "", tail] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = [...left, ...new Array(8 - left.length - right.length).fill("0"), ...right];
  const bytes = Buffer.alloc(16);
  for (const [i, group] of groups.entries()) bytes.writeUInt16BE(Number.parseInt(group, 16), i * 2);
  return bytes;
}

function rdata(record: TestRecord): Buffer {
  switch (record.type) {
    case "A":
      if (!isIPv4(record.value)) throw new Error(`not an IPv4 address: ${record.value}`);
      return Buffer.from(record.value.split(".").map(Number));
    case "AAAA":
      if (!isIPv6(record.value)) throw new Error(`not an IPv6 address: ${record.value}`);
      return ipv6Bytes(record.value);
    case "CNAME":
      return encodeName(record.value);
    case "MX": {
      const preference = Buffer.alloc(2);
      preference.writeUInt16BE(record.priority);
      return Buffer.concat([preference, encodeName(record.exchange)]);
    }
    case "TXT": {
      // Strings of at most 255 bytes each; a resolver joins them back.
      const text = Buffer.from(record.value);
      const parts: Buffer[] = [];
      for (let at = 0; at < text.length || parts.length === 0; at += 255) {
        const chunk = text.subarray(at, at + 255);
        parts.push(Buffer.from([chunk.length]), chunk);
      }
      return Buffer.concat(parts);
    }
  }
}

/** The question of a query: its id, the name, the type and where the question ends. */
function parseQuery(message: Buffer): { id: number; name: string; type: number; end: number } {
  const id = message.readUInt16BE(0);
  const labels: string[] = [];
  let at = 12;
  for (let length = message[at] ?? 0; length > 0; length = message[at] ?? 0) {
    labels.push(message.subarray(at + 1, at + 1 + length).toString());
    at += 1 + length;
  }
  at += 1;
  return { id, name: labels.join(".").toLowerCase(), type: message.readUInt16BE(at), end: at + 4 };
}

function answer(query: Buffer, zone: TestZone): Buffer | undefined {
  const { id, name, type, end } = parseQuery(query);
  const entry = zone[name];
  if (entry === "silent") return undefined;
  const rcode = entry === undefined ? 3 : entry === "servfail" ? 2 : 0;
  const records = Array.isArray(entry) ? entry.filter((record) => TYPES[record.type] === type) : [];
  const header = Buffer.alloc(12);
  header.writeUInt16BE(id, 0);
  // QR, AA, RD and RA set; the response code in the low bits.
  header.writeUInt16BE(0x8580 | rcode, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(records.length, 6);
  const answers = records.map((record) => {
    const data = rdata(record);
    const fixed = Buffer.alloc(12);
    fixed.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
    fixed.writeUInt16BE(TYPES[record.type], 2);
    fixed.writeUInt16BE(1, 4); // IN
    fixed.writeUInt32BE(60, 6);
    fixed.writeUInt16BE(data.length, 10);
    return Buffer.concat([fixed, data]);
  });
  return Buffer.concat([header, query.subarray(12, end), ...answers]);
}

/** Starts the server on 127.0.0.1 at a free port. */
export async function startDnsServer(zone: TestZone): Promise<TestDnsServer> {
  const socket: Socket = createSocket("udp4");
  const asked: string[] = [];
  socket.on("message", (message, remote) => {
    const { name, type } = parseQuery(message);
    asked.push(`${TYPE_NAMES.get(type) ?? type} ${name}`);
    const response = answer(message, zone);
    if (response) socket.send(response, remote.port, remote.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  return {
    resolver: `127.0.0.1:${socket.address().port}`,
    asked,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
