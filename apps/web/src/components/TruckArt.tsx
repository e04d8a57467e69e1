import { useDirection } from '@mantine/core';

/**
 * Inline truck illustration for the 404 page: a Masar-green truck on a lane that ends in a
 * question mark. Mirrored in RTL (the truck drives toward the reading direction's end).
 */
export function TruckArt({ width = 360 }: { width?: number }) {
  const { dir } = useDirection();
  const rtl = dir === 'rtl';
  // mirror the drawing, not the text
  const tx = (x: number) => (rtl ? 360 - x : x);
  return (
    <svg viewBox="0 0 360 200" width={width} style={{ maxWidth: '100%', height: 'auto' }} role="img" aria-hidden="true" data-mirrored={rtl || undefined}>
      <g transform={rtl ? 'translate(360 0) scale(-1 1)' : undefined}>
        <defs>
          <linearGradient id="masar-sky" x1="0" x2="0" y1="0" y2="1">
            <stop offset="0" stopColor="var(--mantine-color-masar-light)" />
            <stop offset="1" stopColor="transparent" />
          </linearGradient>
        </defs>
        <rect x="0" y="0" width="360" height="160" rx="16" fill="url(#masar-sky)" />
        {/* dunes */}
        <path d="M0 140 Q60 110 120 135 T240 130 T360 138 V160 H0 Z" fill="#ffcd00" opacity="0.35" />
        {/* road */}
        <rect x="0" y="158" width="360" height="26" fill="var(--mantine-color-dark-4)" />
        {[10, 70, 130, 190, 250, 310].map((x) => (
          <rect key={x} x={x} y="169" width="30" height="4" rx="2" fill="#ffcd00" />
        ))}
        {/* trailer */}
        <rect x="40" y="70" width="170" height="78" rx="6" fill="#0FC474" />
        <rect x="52" y="82" width="146" height="54" rx="4" fill="none" stroke="#fff" strokeOpacity="0.5" strokeWidth="2" strokeDasharray="6 6" />
        {/* cab */}
        <path d="M214 92 H262 L290 120 V148 H214 Z" fill="#00a356" />
        <path d="M224 100 H258 L278 122 H224 Z" fill="#e5fff3" />
        <rect x="284" y="132" width="10" height="8" rx="2" fill="#ffcd00" />
        <rect x="36" y="146" width="258" height="6" rx="3" fill="var(--mantine-color-dark-6)" />
        {/* wheels */}
        {[78, 172, 256].map((cx) => (
          <g key={cx}>
            <circle cx={cx} cy="156" r="15" fill="var(--mantine-color-dark-7)" />
            <circle cx={cx} cy="156" r="6" fill="var(--mantine-color-gray-4)" />
          </g>
        ))}
        {/* lost sign */}
        <rect x="318" y="88" width="6" height="70" fill="var(--mantine-color-gray-6)" />
        <circle cx="321" cy="80" r="20" fill="#F00053" />
      </g>
      <text x={tx(125)} y="118" textAnchor="middle" fontSize="30" fontWeight="800" fill="#fff" fontFamily="system-ui, sans-serif">
        404
      </text>
      <text x={tx(321)} y="89" textAnchor="middle" fontSize="24" fontWeight="800" fill="#fff" fontFamily="system-ui, sans-serif">
        ?
      </text>
    </svg>
  );
}
