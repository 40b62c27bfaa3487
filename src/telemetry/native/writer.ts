/**
 * A growable little-endian byte buffer with the primitives of ClickHouse's Native format: fixed
 * width integers and floats, LEB128 lengths, and length-prefixed UTF-8 strings.
 */
export class NativeWriter {
  private buffer: Buffer;
  private position = 0;

  constructor(initialBytes = 64 * 1024) {
    this.buffer = Buffer.allocUnsafe(initialBytes);
  }

  /** The bytes written so far (a view, not a copy). */
  bytes(): Buffer {
    return this.buffer.subarray(0, this.position);
  }

  private reserve(bytes: number): void {
    if (this.position + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.position + bytes));
    this.buffer.copy(grown, 0, 0, this.position);
    this.buffer = grown;
  }

  varUInt(value: number): void {
    this.reserve(10);
    let n = value;
    while (n >= 0x80) {
      this.buffer[this.position++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    this.buffer[this.position++] = n;
  }

  uint8(value: number): void {
    this.reserve(1);
    this.buffer[this.position++] = value;
  }

  uint16(value: number): void {
    this.reserve(2);
    this.position = this.buffer.writeUInt16LE(value, this.position);
  }

  uint32(value: number): void {
    this.reserve(4);
    this.position = this.buffer.writeUInt32LE(value, this.position);
  }

  int32(value: number): void {
    this.reserve(4);
    this.position = this.buffer.writeInt32LE(value, this.position);
  }

  /** A 64-bit integer given as its low and high 32-bit words (two's complement for negatives). */
  words64(low: number, high: number): void {
    this.reserve(8);
    this.buffer.writeUInt32LE(low >>> 0, this.position);
    this.buffer.writeUInt32LE(high >>> 0, this.position + 4);
    this.position += 8;
  }

  bigUInt64(value: bigint): void {
    this.reserve(8);
    this.position = this.buffer.writeBigUInt64LE(value, this.position);
  }

  float64(value: number): void {
    this.reserve(8);
    this.position = this.buffer.writeDoubleLE(value, this.position);
  }

  /** A string as its UTF-8 byte length (LEB128) and bytes. */
  string(value: string): void {
    const length = value.length;
    // Short ASCII, the common case, byte by byte: cheaper than a native call per string.
    if (length < 0x80) {
      this.reserve(length + 1);
      const start = this.position + 1;
      let i = 0;
      for (; i < length; i++) {
        const code = value.charCodeAt(i);
        if (code >= 0x80) break;
        this.buffer[start + i] = code;
      }
      if (i === length) {
        this.buffer[this.position] = length;
        this.position = start + length;
        return;
      }
    }
    const bytes = Buffer.byteLength(value, "utf8");
    this.varUInt(bytes);
    this.reserve(bytes);
    this.position += this.buffer.write(value, this.position, bytes, "utf8");
  }
}
