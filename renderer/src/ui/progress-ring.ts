/**
 * The geometry of a circular progress indicator drawn as an SVG circle whose stroke is dashed: one
 * dash as long as the done part of the circumference, then a gap. Kept apart from the component so
 * the maths is tested alone.
 */
export interface RingGeometry {
  /** Centre of the circle in the square viewBox (size / 2). */
  readonly center: number;
  /** Radius of the stroke's centre line, so the whole stroke stays inside the box. */
  readonly radius: number;
  readonly circumference: number;
  /**
   * stroke-dashoffset: the part of the circumference NOT done (0 = full circle, circumference =
   * nothing).
   */
  readonly dashOffset: number;
  /** The percent shown, clamped to 0..100 and rounded; what the text and aria-valuenow say. */
  readonly percent: number;
}

export function ringGeometry(percent: number, size: number, stroke: number): RingGeometry {
  if (!(size > 0) || !(stroke > 0) || stroke * 2 >= size)
    throw new RangeError(`ring: stroke ${stroke} does not fit a ${size} box`);
  // NaN (no lectures yet) reads as nothing done, not as a broken ring.
  const clamped = Number.isFinite(percent) ? Math.min(100, Math.max(0, percent)) : 0;
  const center = size / 2;
  const radius = center - stroke / 2;
  const circumference = 2 * Math.PI * radius;
  return {
    center,
    radius,
    circumference,
    dashOffset: circumference * (1 - clamped / 100),
    percent: Math.round(clamped),
  };
}
