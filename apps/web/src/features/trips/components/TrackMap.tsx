import { useEffect } from 'react';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { CircleMarker, MapContainer, Marker, Polyline, Popup, TileLayer, Tooltip, useMap } from 'react-leaflet';
import { useMantineTheme } from '@mantine/core';
import type { ReactNode } from 'react';
// Bundlers break Leaflet's default icon lookup: import the images and set them explicitly.
import iconUrl from 'leaflet/dist/images/marker-icon.png';
import iconRetinaUrl from 'leaflet/dist/images/marker-icon-2x.png';
import shadowUrl from 'leaflet/dist/images/marker-shadow.png';

L.Marker.prototype.options.icon = L.icon({
  iconUrl,
  iconRetinaUrl,
  shadowUrl,
  iconSize: [25, 41],
  iconAnchor: [12, 41],
  popupAnchor: [1, -34],
  shadowSize: [41, 41],
});

const SA_CENTER: [number, number] = [24.0, 45.0];
/** Tiles URL as components/LoadsMap reads it (not imported: LoadsMap stays its own chunk). */
const mapTilesUrl = () =>
  (window as { __MASAR_CONFIG__?: { mapTilesUrl?: string } }).__MASAR_CONFIG__?.mapTilesUrl ?? 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';

/** Theme colour (shade 6) of each load status on the map; vehicles without a shipment are gray. */
export const STATUS_COLOR: Record<string, string> = {
  unassigned: 'orange',
  assigned: 'blue',
  pending_bayan: 'yellow',
  completed: 'teal',
  vehicle: 'gray',
};

export interface MapDot {
  key: string;
  lat: number;
  lng: number;
  /** a STATUS_COLOR key */
  status: string;
  label: string;
  popup?: ReactNode;
  /** a truck (pin marker) rather than a stop (dot) */
  truck?: boolean;
}

function Fit({ points }: { points: [number, number][] }) {
  const map = useMap();
  const key = points.map((p) => p.join(',')).join(';');
  useEffect(() => {
    const fit = () => {
      map.invalidateSize();
      if (points.length === 1) map.setView(points[0], 9);
      else if (points.length > 1) map.fitBounds(L.latLngBounds(points), { padding: [30, 30], maxZoom: 11 });
    };
    fit();
    const t = window.setTimeout(fit, 150);
    return () => window.clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, map]);
  return null;
}

/** A Leaflet map of dots (stops, coloured by status), trucks (pins), lanes and a trail. Part of the page chunk (lazy route). */
export default function TrackMap({
  dots,
  lanes = [],
  trail = [],
  height = 420,
}: {
  dots: MapDot[];
  lanes?: { key: string; from: [number, number]; to: [number, number]; status: string }[];
  trail?: [number, number][];
  height?: number | string;
}) {
  const theme = useMantineTheme();
  const colour = (status: string) => theme.colors[STATUS_COLOR[status] ?? 'gray']?.[6] ?? theme.colors.gray[6];
  const points: [number, number][] = [...dots.map((d) => [d.lat, d.lng] as [number, number]), ...trail];
  return (
    <div data-testid="track-map" style={{ height, width: '100%', borderRadius: 8, overflow: 'hidden', background: 'var(--mantine-color-gray-3)' }}>
      <MapContainer center={SA_CENTER} zoom={5} style={{ height: '100%', width: '100%' }} scrollWheelZoom>
        <TileLayer url={mapTilesUrl()} attribution="&copy; OpenStreetMap contributors" />
        {lanes.map((l) => (
          <Polyline key={l.key} positions={[l.from, l.to]} pathOptions={{ color: colour(l.status), weight: 2, opacity: 0.45, dashArray: '6 6' }} />
        ))}
        {trail.length > 1 && <Polyline positions={trail} pathOptions={{ color: theme.colors.masar?.[6] ?? theme.colors.green[6], weight: 4, opacity: 0.9 }} />}
        {dots.map((d) =>
          d.truck ? (
            <Marker key={d.key} position={[d.lat, d.lng]} title={d.label} alt={d.label}>
              {d.popup && <Popup>{d.popup}</Popup>}
            </Marker>
          ) : (
            <CircleMarker
              key={d.key}
              center={[d.lat, d.lng]}
              radius={7}
              pathOptions={{ color: colour(d.status), fillColor: colour(d.status), fillOpacity: 0.8 }}
            >
              <Tooltip>{d.label}</Tooltip>
              {d.popup && <Popup>{d.popup}</Popup>}
            </CircleMarker>
          ),
        )}
        <Fit points={points} />
      </MapContainer>
    </div>
  );
}
