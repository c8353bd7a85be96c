import type { OwnPhoto, PhotoVariant } from '@amora/contracts';
import type { PhotoRow } from './photos.repository';

/** The address a variant is served from; the route checks access on every request. */
export function photoUrl(id: number, variant: PhotoVariant): string {
  return `/api/photo.php?id=${id}&v=${variant}`;
}

export function presentOwnPhoto(row: PhotoRow, mainPhotoId: number | null): OwnPhoto {
  return {
    id: row.id,
    status: row.status,
    is_main: row.id === mainPhotoId,
    width: row.width,
    height: row.height,
    urls: {
      large: photoUrl(row.id, 'large'),
      thumb: photoUrl(row.id, 'thumb'),
      match: photoUrl(row.id, 'match'),
      blur: photoUrl(row.id, 'blur'),
    },
  };
}
