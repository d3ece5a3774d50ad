/**
 * The dashboards' favicon, drawn in code: a 32×32 ICO (one 32-bit BMP image)
 * of a blue rounded square with a white tick. Built once at start-up, so no
 * binary file has to be embedded.
 *
 * @module
 */

const SIZE = 32;

function distanceToSegment(
  px: number,
  py: number,
  [ax, ay]: [number, number],
  [bx, by]: [number, number],
): number {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

/** The colour of pixel (x, y), top-left origin, as [r, g, b, a]. */
function pixel(x: number, y: number): [number, number, number, number] {
  const cx = x + 0.5;
  const cy = y + 0.5;
  const r = 7;
  const nearX = Math.max(r, Math.min(SIZE - r, cx));
  const nearY = Math.max(r, Math.min(SIZE - r, cy));
  if (Math.hypot(cx - nearX, cy - nearY) > r) return [0, 0, 0, 0];
  const tick = Math.min(
    distanceToSegment(cx, cy, [8, 17], [14, 23]),
    distanceToSegment(cx, cy, [14, 23], [24, 10]),
  );
  return tick <= 2.4 ? [255, 255, 255, 255] : [0x24, 0x56, 0xc7, 255];
}

/** The ICO file's bytes. */
export function faviconIco(): Uint8Array {
  const pixels = SIZE * SIZE * 4;
  const mask = SIZE * 4; // 1 bit per pixel, rows padded to 4 bytes: all zero (opaque; alpha rules)
  const image = 40 + pixels + mask;
  const bytes = new Uint8Array(6 + 16 + image);
  const view = new DataView(bytes.buffer);
  view.setUint16(2, 1, true); // type: icon
  view.setUint16(4, 1, true); // one image
  bytes[6] = SIZE;
  bytes[7] = SIZE;
  view.setUint16(10, 1, true); // planes
  view.setUint16(12, 32, true); // bits per pixel
  view.setUint32(14, image, true);
  view.setUint32(18, 22, true); // offset of the image
  const header = 22;
  view.setUint32(header, 40, true);
  view.setInt32(header + 4, SIZE, true);
  view.setInt32(header + 8, SIZE * 2, true); // colour and mask stacked
  view.setUint16(header + 12, 1, true);
  view.setUint16(header + 14, 32, true);
  view.setUint32(header + 20, pixels + mask, true);
  let at = header + 40;
  for (let y = SIZE - 1; y >= 0; y--) { // bottom-up rows, BGRA
    for (let x = 0; x < SIZE; x++) {
      const [r, g, b, a] = pixel(x, y);
      bytes.set([b, g, r, a], at);
      at += 4;
    }
  }
  return bytes;
}
