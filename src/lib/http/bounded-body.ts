/**
 * Response bodies read within a byte limit, and cut without splitting a UTF-8 character: shared
 * by the monitors' requests and the webhooks' attempts, which both keep a bounded part of what a
 * user-supplied target answers.
 */

/** Reads at most `limit` bytes; stopping early ends the iteration, which aborts the download. */
export async function readBounded(
  source: AsyncIterable<Buffer>,
  limit: number,
): Promise<{ bytes: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of source) {
    if (chunk.length > limit - size) {
      chunks.push(chunk.subarray(0, limit - size));
      return { bytes: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { bytes: Buffer.concat(chunks), truncated: false };
}

/** The longest prefix of at most `max` bytes that does not end inside a UTF-8 character. */
export function utf8Prefix(bytes: Buffer, max: number): Buffer {
  let end = Math.min(max, bytes.length);
  let start = end - 1;
  while (start > 0 && start > end - 4 && ((bytes[start] ?? 0) & 0xc0) === 0x80) start--;
  const lead = bytes[start] ?? 0;
  const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  if (start >= 0 && start + length > end) end = start;
  return bytes.subarray(0, end);
}
