import { GEOLOCATION_MAX_AGE_MS } from '@amora/contracts/core';
import { useEffect, useState } from 'react';
import { api } from '@/lib/api-client';

/** Spec §4: the geolocation permission is unsupported, unknown, or what the browser says. */
export type GeolocationPermission = 'unsupported' | 'unknown' | PermissionState;

/** The browser's geolocation permission, followed as it changes. Asks nothing: only a click asks for the position. */
export function useGeolocationPermission(): GeolocationPermission {
  const [state, setState] = useState<GeolocationPermission>(() => ('geolocation' in navigator ? 'unknown' : 'unsupported'));
  useEffect(() => {
    if (!('geolocation' in navigator) || !navigator.permissions) return;
    let status: PermissionStatus | null = null;
    let isGone = false;
    navigator.permissions.query({ name: 'geolocation' }).then(
      (result) => {
        if (isGone) return;
        status = result;
        setState(result.state);
        result.onchange = () => setState(result.state);
      },
      () => {},
    );
    return () => {
      isGone = true;
      if (status) status.onchange = null;
    };
  }, []);
  return state;
}

/** The browser's position (a cached one up to an hour old, spec §9); the browser asks the member first. */
export function currentPosition(): Promise<GeolocationPosition> {
  return new Promise((resolve, reject) =>
    navigator.geolocation.getCurrentPosition(resolve, reject, {
      maximumAge: GEOLOCATION_MAX_AGE_MS,
      timeout: 15_000,
      enableHighAccuracy: false,
    }),
  );
}

/** The city nearest a position, with its country and region (GET geocode.php, spec §7); 404 no_city when none is near. */
export const geocode = (lat: number, lon: number) => api('GET /api/geocode.php', { query: { lat, lon } });
