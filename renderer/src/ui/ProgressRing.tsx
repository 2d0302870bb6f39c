import { ringGeometry } from './progress-ring';

/**
 * A circular progress indicator with the percent in the middle; a progressbar to assistive
 * technology.
 */
export function ProgressRing({
  value,
  label,
  size = 64,
  stroke = 6,
}: {
  readonly value: number;
  readonly label: string;
  readonly size?: number;
  readonly stroke?: number;
}) {
  const g = ringGeometry(value, size, stroke);
  return (
    <div
      className="progress-ring"
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={g.percent}
      aria-label={label}
      style={{ width: size, height: size }}
    >
      <svg viewBox={`0 0 ${size} ${size}`} width={size} height={size} aria-hidden="true">
        <circle
          className="progress-ring-track"
          cx={g.center}
          cy={g.center}
          r={g.radius}
          strokeWidth={stroke}
          fill="none"
        />
        <circle
          className="progress-ring-value"
          cx={g.center}
          cy={g.center}
          r={g.radius}
          strokeWidth={stroke}
          fill="none"
          strokeLinecap="round"
          strokeDasharray={g.circumference}
          strokeDashoffset={g.dashOffset}
          // Start at twelve o'clock and run clockwise.
          transform={`rotate(-90 ${g.center} ${g.center})`}
          style={g.percent === 0 ? { opacity: 0 } : undefined}
        />
      </svg>
      <span className="progress-ring-text" aria-hidden="true">
        {g.percent}
        <small>%</small>
      </span>
    </div>
  );
}
