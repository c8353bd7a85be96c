import { type OwnPhoto, photoUrl } from '@amora/contracts';
import type { PhotoRow } from './photos.repository';

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
