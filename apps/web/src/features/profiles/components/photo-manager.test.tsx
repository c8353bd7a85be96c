import { type OwnPhoto, type OwnProfile, ownProfileResponseSchema } from '@amora/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { contractJson } from '@/testing/contract';
import { userFixture } from '@/testing/fixtures';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/server';
import { text } from '@/testing/text';

const photoOf = (id: number, overrides: Partial<OwnPhoto> = {}): OwnPhoto => ({
  id,
  status: 'active',
  is_main: false,
  width: 800,
  height: 1000,
  urls: { large: `/photos/${id}-l.webp`, thumb: `/photos/${id}-t.webp`, match: `/photos/${id}-m.webp`, blur: `/photos/${id}-b.webp` },
  ...overrides,
});

const ownProfile = (photos: OwnPhoto[], overrides: Partial<OwnProfile> = {}): OwnProfile => ({
  id: 70,
  name: 'Robin',
  age: 33,
  country: 'NL',
  region: null,
  city: null,
  about: '',
  gender: 'man',
  sexuality: null,
  hair_colour: null,
  eye_colour: null,
  body_type: null,
  relationship_status: null,
  looking_for: ['woman'],
  interests: [],
  is_invisible: false,
  main_photo_id: photos.find((p) => p.is_main)?.id ?? null,
  photos,
  photo_limit: 3,
  ...overrides,
});

/**
 * The browser's XMLHttpRequest as the upload sees it: each send is held until the test reports progress and
 * answers, so the page can be looked at halfway.
 */
class FakeUpload {
  static sent: FakeUpload[] = [];
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  responseType = '';
  status = 0;
  response: unknown = null;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  send(body: FormData) {
    this.body = body;
    FakeUpload.sent.push(this);
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent);
  }
  answer(status: number, response: unknown) {
    this.status = status;
    this.response = response;
    this.onload?.();
  }
}

const jpeg = (name = 'me.jpg', size = 2048) => new File([new Uint8Array(size)], name, { type: 'image/jpeg' });

/** The own profile, its GET answering whatever `photos` holds at the time. */
async function openProfile(photos: OwnPhoto[], overrides: Partial<OwnProfile> = {}) {
  server.use(http.get('*/api/profile.php', () => contractJson(ownProfileResponseSchema, { profile: ownProfile(photos, overrides) })));
  const view = await renderApp('/profile', { user: userFixture() });
  const manager = await screen.findByTestId('photo-manager');
  return { ...view, manager };
}

beforeEach(() => {
  FakeUpload.sent = [];
  vi.stubGlobal('XMLHttpRequest', FakeUpload);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the photo manager', () => {
  it('uploads a dropped photo with progress, then shows it', async () => {
    const photos: OwnPhoto[] = [photoOf(1, { is_main: true })];
    const { manager } = await openProfile(photos);
    expect(within(manager).getAllByTestId('own-photo')).toHaveLength(1);

    const file = jpeg();
    fireEvent.drop(within(manager).getByTestId('photo-drop'), { dataTransfer: { files: [file], types: ['Files'] } });

    await waitFor(() => expect(FakeUpload.sent).toHaveLength(1));
    const [upload] = FakeUpload.sent;
    expect(upload.method).toBe('POST');
    expect(upload.url).toBe('/api/photos.php');
    expect(upload.headers['x-request-type']).toBe('client');
    expect(upload.body?.get('photo')).toBe(file);

    upload.progress(40, 100);
    const bar = await within(manager).findByTestId('upload-progress');
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '40'));
    expect(bar).toHaveAccessibleName(text('profile.photos.uploading'));
    expect(screen.getByLabelText(text('profile.photos.add'))).toBeDisabled();

    const added = photoOf(2);
    photos.push(added);
    upload.progress(100, 100);
    upload.answer(201, { photo: added });

    await waitFor(() => expect(within(manager).getAllByTestId('own-photo')).toHaveLength(2));
    expect(within(manager).queryByTestId('upload-progress')).toBeNull();
    expect(await screen.findByTestId('photo-added')).toHaveTextContent(text('profile.photos.added', { count: 1 }));
    expect(within(manager).getByTestId('photo-count')).toHaveTextContent(text('profile.photos.count', { used: 2, max: 3 }));
  });

  it('refuses a file of the wrong type with the spec’s text, and sends nothing', async () => {
    const { manager } = await openProfile([]);
    const gif = new File([new Uint8Array(10)], 'funny.gif', { type: 'image/gif' });
    fireEvent.drop(within(manager).getByTestId('photo-drop'), { dataTransfer: { files: [gif], types: ['Files'] } });
    expect(await within(manager).findByTestId('photo-error')).toHaveTextContent(text('errorCodes.photo_type'));
    expect(FakeUpload.sent).toHaveLength(0);
  });

  it('refuses a photo over 15 MB before sending it', async () => {
    const { manager, user } = await openProfile([]);
    await user.upload(screen.getByLabelText(text('profile.photos.add')), jpeg('huge.jpg', 15 * 1024 * 1024 + 1));
    expect(await within(manager).findByTestId('photo-error')).toHaveTextContent(text('errorCodes.photo_too_large'));
    expect(FakeUpload.sent).toHaveLength(0);
  });

  it('shows the server’s refusal in the page’s words (the limit of a free member)', async () => {
    const { manager, user } = await openProfile([photoOf(1, { is_main: true })]);
    await user.upload(screen.getByLabelText(text('profile.photos.add')), jpeg());
    await waitFor(() => expect(FakeUpload.sent).toHaveLength(1));
    FakeUpload.sent[0].answer(409, { error: 'photo_limit', message: 'You have reached the maximum of 3 photos', limit: 3 });
    expect(await within(manager).findByTestId('photo-error')).toHaveTextContent(text('errorCodes.photo_limit', { count: 3 }));
    expect(within(manager).getAllByTestId('own-photo')).toHaveLength(1);
  });

  it('takes no more dropped photos than there are places left, and says why', async () => {
    const photos: OwnPhoto[] = [photoOf(1, { is_main: true }), photoOf(2)];
    const { manager } = await openProfile(photos);
    fireEvent.drop(within(manager).getByTestId('photo-drop'), {
      dataTransfer: { files: [jpeg('a.jpg'), jpeg('b.jpg')], types: ['Files'] },
    });
    await waitFor(() => expect(FakeUpload.sent).toHaveLength(1));
    const added = photoOf(3);
    photos.push(added);
    FakeUpload.sent[0].answer(201, { photo: added });
    expect(await within(manager).findByTestId('photo-limit')).toHaveTextContent(text('profile.photos.full', { count: 3 }));
    expect(within(manager).getByTestId('photo-error')).toHaveTextContent(text('errorCodes.photo_limit', { count: 3 }));
    expect(FakeUpload.sent).toHaveLength(1);
    expect(screen.queryByLabelText(text('profile.photos.add'))).toBeNull();
  });

  it('asks before deleting a photo, and deletes nothing on Cancel', async () => {
    const photos: OwnPhoto[] = [photoOf(1, { is_main: true }), photoOf(2)];
    const deleted: unknown[] = [];
    server.use(
      http.delete('*/api/photos.php', async ({ request }) => {
        const body = (await request.json()) as { id: number };
        deleted.push(body);
        photos.splice(
          photos.findIndex((p) => p.id === body.id),
          1,
        );
        return HttpResponse.json({ ok: true });
      }),
    );
    const { manager, user } = await openProfile(photos);
    const second = within(manager).getAllByTestId('own-photo')[1];

    await user.click(within(second).getByTestId('delete-photo'));
    const question = await screen.findByRole('dialog', { name: text('profile.photos.deleteTitle') });
    await user.click(within(question).getByRole('button', { name: text('common.cancel') }));
    expect(deleted).toHaveLength(0);

    await user.click(within(second).getByTestId('delete-photo'));
    const again = await screen.findByRole('dialog', { name: text('profile.photos.deleteTitle') });
    await user.click(within(again).getByRole('button', { name: text('profile.photos.delete') }));
    await waitFor(() => expect(deleted).toEqual([{ id: 2 }]));
    expect(await screen.findByTestId('photo-deleted')).toHaveTextContent(text('profile.photos.deleted'));
    await waitFor(() => expect(within(manager).getAllByTestId('own-photo')).toHaveLength(1));
  });
});
