import { type Executor, photos, profiles } from '@amora/db';
import { and, desc, eq } from 'drizzle-orm';

/** The most fictional profiles a lander chooses from (a site runs a few dozen; the niche and the order pick). */
const MAX_CANDIDATES = 500;

/**
 * The site's fictional profiles a lander may show: active, visible, with an active main photo. Only what a lander
 * shows and chooses by (gender, sexuality, looking for, body type, age, place).
 */
export async function findLanderCandidates(db: Executor, siteId: number) {
  return db
    .select({
      id: profiles.id,
      name: profiles.name,
      birthDate: profiles.birthDate,
      city: profiles.city,
      country: profiles.country,
      lat: profiles.lat,
      lon: profiles.lon,
      gender: profiles.gender,
      sexuality: profiles.sexuality,
      lookingFor: profiles.lookingFor,
      bodyType: profiles.bodyType,
      photoId: photos.id,
    })
    .from(profiles)
    .innerJoin(photos, and(eq(photos.id, profiles.mainPhotoId), eq(photos.status, 'active')))
    .where(and(eq(profiles.siteId, siteId), eq(profiles.isFictional, true), eq(profiles.status, 'active'), eq(profiles.isInvisible, false)))
    .orderBy(desc(profiles.id))
    .limit(MAX_CANDIDATES);
}

export type LanderCandidate = Awaited<ReturnType<typeof findLanderCandidates>>[number];
