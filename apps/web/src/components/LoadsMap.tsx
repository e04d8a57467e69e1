import { useEffect, useMemo } from 'react';
import { Anchor, Stack, Text } from '@mantine/core';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import MarkerClusterGroup from 'react-leaflet-cluster';
import 'react-leaflet-cluster/dist/assets/MarkerCluster.css';
import { Circle, MapContainer, Marker, Polyline, Popup, TileLayer, useMap } from 'react-leaflet';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Load } from '@masar/shared';
// Bundlers break Leaflet's default icon lookup: import the images and set them explicitly.
import iconUrl from 'leaflet/dist/images/marker-icon.png';
import iconRetinaUrl from 'leaflet/dist/images/marker-icon-2x.png';
import shadowUrl from 'leaflet/dist/images/marker-shadow.png';
import { asLang, formatMoney, formatNumber } from './format';
import { laneOf } from './Lane';

const markerIcon = L.icon({ iconUrl, iconRetinaUrl, shadowUrl, iconSize: [25, 41], iconAnchor: [12, 41], popupAnchor: [1, -34], shadowSize: [41, 41] });
L.Marker.prototype.options.icon = markerIcon;

declare global {
  interface Window {
    __MASAR_CONFIG__?: { mapTilesUrl?: string };
  }
}

/** Tiles URL: deploy-time config first, OSM by default. The map works (grey) when tiles cannot load. */
export const mapTilesUrl = () => window.__MASAR_CONFIG__?.mapTilesUrl ?? 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';

/** Centre of Saudi Arabia, for an empty map. */
const SA_CENTER: [number, number] = [24.0, 45.0];

function FitBounds({ points, circle }: { points: [number, number][]; circle?: { lat: number; lng: number; radiusKm?: number } | null }) {
  const map = useMap();
  const key = `${points.map((p) => p.join(',')).join(';')}|${circle ? `${circle.lat},${circle.lng},${circle.radiusKm}` : ''}`;
  useEffect(() => {
    const fit = () => {
      // The container may have been laid out after the map was created: measure again first.
      map.invalidateSize();
      let b = points.length ? L.latLngBounds(points) : null;
      if (circle?.radiusKm) {
        const c = L.latLng(circle.lat, circle.lng).toBounds(circle.radiusKm * 2000);
        b = b ? b.extend(c) : c;
      }
      if (!b) return;
      if (points.length === 1 && !circle?.radiusKm) map.setView(points[0], 8);
      else map.fitBounds(b, { padding: [30, 30], maxZoom: 10 });
    };
    fit();
    const t = window.setTimeout(fit, 150);
    return () => window.clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, map]);
  return null;
}

interface Props {
  loads: Load[];
  /** Link to a load's details. */
  hrefOf: (load: Load) => string;
  /** The searched pickup point and radius (km), drawn as a circle. */
  center?: { lat: number; lng: number; radiusKm?: number } | null;
  height?: number | string;
  /** The load whose row is hovered or focused in the table beside the map: its pin is highlighted. */
  highlightId?: string | null;
}

/**
 * The highlighted pin (issue 23): drawn above every marker and cluster, outside the cluster group
 * so that it shows even when its load sits inside a cluster. Decorative: the row it echoes is the
 * accessible thing, so the pin is hidden from assistive technology and takes no clicks.
 */
const activeIcon = (ref: string) =>
  L.divIcon({
    html: `<span class="masar-map-pin-active" data-active-pin="${ref.replace(/[^A-Za-z0-9-]/g, '')}" aria-hidden="true"></span>`,
    className: 'masar-map-pin-active-wrap',
    iconSize: L.point(22, 22),
    iconAnchor: L.point(11, 11),
  });

/** A cluster of `count` loads: a round badge in the theme's readable green, named for screen readers. */
function clusterIcon(count: number, t: (key: string, opts: Record<string, unknown>) => string, lang: 'en' | 'ar') {
  const label = t('map.cluster', { count });
  // the count in the reader's digit system, as every other number (issue 23)
  return L.divIcon({
    html: `<span aria-label="${label}" title="${label}">${formatNumber(count, lang)}</span>`,
    className: 'masar-map-cluster',
    iconSize: L.point(36, 36),
  });
}

/** Loads at their first pickup, the lane to their last drop, and the search circle. */
export function LoadsMap({ loads, hrefOf, center, height = 520, highlightId = null }: Props) {
  const { t, i18n } = useTranslation('loads');
  const lang = asLang(i18n.language);
  const points = useMemo(() => {
    const p: [number, number][] = loads.flatMap((l) => (l.stops[0] ? [[l.stops[0].lat, l.stops[0].lng] as [number, number]] : []));
    if (center) p.push([center.lat, center.lng]);
    return p;
  }, [loads, center]);
  return (
    <div data-testid="loads-map" style={{ height, width: '100%', borderRadius: 8, overflow: 'hidden', background: 'var(--mantine-color-gray-3)' }}>
      <MapContainer center={SA_CENTER} zoom={5} style={{ height: '100%', width: '100%' }} scrollWheelZoom>
        <TileLayer url={mapTilesUrl()} attribution="&copy; OpenStreetMap contributors" />
        {center?.radiusKm && (
          <Circle center={[center.lat, center.lng]} radius={center.radiusKm * 1000} pathOptions={{ color: '#0FC474', weight: 1, fillOpacity: 0.08 }} />
        )}
        {/* Loads at one city would stack into one unreachable pile (WCAG 2.5.8): nearby markers
            merge into a numbered cluster that opens on click or Enter. */}
        <MarkerClusterGroup chunkedLoading iconCreateFunction={(c: { getChildCount(): number }) => clusterIcon(c.getChildCount(), t, lang)}>
          {loads.map((l) => {
            const first = l.stops[0];
            if (!first) return null;
            const lane = laneOf(l);
            const laneText = lang === 'ar' ? `${lane.fromAr} ← ${lane.toAr}` : `${lane.fromEn} → ${lane.toEn}`;
            return (
              <Marker key={l.id} position={[first.lat, first.lng]} title={l.referenceId} alt={`${l.referenceId}, ${laneText}`}>
                <Popup>
                  <Stack gap={2}>
                    <Text size="sm" fw={600}>
                      {laneText}
                    </Text>
                    <Text size="sm">{formatMoney(l.priceSar, lang)}</Text>
                    <Anchor component={Link} to={hrefOf(l)} size="sm">
                      {t('action.view')} {l.referenceId}
                    </Anchor>
                  </Stack>
                </Popup>
              </Marker>
            );
          })}
        </MarkerClusterGroup>
        {loads.map((l) =>
          l.stops.length > 1 ? (
            <Polyline
              key={l.id}
              positions={l.stops.map((s) => [s.lat, s.lng] as [number, number])}
              pathOptions={{ color: '#0FC474', weight: 2, opacity: 0.5 }}
            />
          ) : null,
        )}
        {(() => {
          const active = highlightId ? loads.find((l) => l.id === highlightId) : undefined;
          const first = active?.stops[0];
          return active && first ? (
            <Marker position={[first.lat, first.lng]} icon={activeIcon(active.referenceId)} interactive={false} keyboard={false} zIndexOffset={10_000} />
          ) : null;
        })()}
        <FitBounds points={points} circle={center} />
      </MapContainer>
    </div>
  );
}
