// The design system's pieces on one page, for docs/ui.md: `npm run dev -w @amora/web`, then /ui-gallery.html.
// A second Vite entry that only the dev server serves; the production build leaves it out.
import '../styles/theme.scss';
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { Avatar } from '@/components/ui/avatar';
import { Badge, CountBadge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmProvider, useConfirm } from '@/components/ui/confirm';
import { EmptyState } from '@/components/ui/empty-state';
import { FormField } from '@/components/ui/form-field';
import { Sheet } from '@/components/ui/sheet';
import { Skeleton, SkeletonRegion, SkeletonText } from '@/components/ui/skeleton';
import { ToastProvider, useToast } from '@/components/ui/toast';
import { initI18n } from '@/lib/i18n';

const SWATCHES = [
  ['primary', 'var(--bs-primary)'],
  ['secondary', 'var(--bs-secondary)'],
  ['success', 'var(--bs-success)'],
  ['danger', 'var(--bs-danger)'],
  ['unread', 'var(--am-unread)'],
  ['body', 'var(--bs-body-color)'],
  ['muted', 'var(--bs-secondary-color)'],
  ['light', 'var(--bs-light)'],
];

function Gallery() {
  const toast = useToast();
  const confirm = useConfirm();
  const [isSheetOpen, setIsSheetOpen] = useState(false);
  const [answer, setAnswer] = useState('');
  return (
    <main className="container py-4" style={{ maxWidth: 960 }}>
      <h1 className="mb-4">Amora UI</h1>

      <section className="mb-5" data-section="tokens">
        <h2 className="h4">Colour</h2>
        <div className="d-flex flex-wrap gap-3 mb-4">
          {SWATCHES.map(([name, value]) => (
            <div key={name} className="text-center small">
              <div className="rounded-3 shadow-sm mb-1" style={{ width: 72, height: 48, background: value }} />
              {name}
            </div>
          ))}
        </div>
        <h2 className="h4">Type</h2>
        <p className="display-6 mb-1">Display 6 · 800</p>
        <h1 className="mb-1">Heading 1</h1>
        <h2 className="mb-1">Heading 2</h2>
        <h3 className="mb-1">Heading 3</h3>
        <p className="lead mb-1">Lead text: meet singles near you.</p>
        <p className="mb-1">Body text, 16 px. Zażółć gęślą jaźń — Æble, Øl, Åben, Größe.</p>
        <p className="small text-body-secondary">Small, secondary text.</p>
        <h2 className="h4 mt-4">Radius and shadow</h2>
        <div className="d-flex flex-wrap gap-3">
          {['sm', '', 'lg', 'xl'].map((r) => (
            <div
              key={r}
              className="bg-white text-center small p-3"
              style={{ width: 96, borderRadius: `var(--am-radius${r ? `-${r}` : ''})`, boxShadow: 'var(--am-shadow-sm)' }}
            >
              radius {r || 'md'}
            </div>
          ))}
          {['sm', '', 'lg'].map((s) => (
            <div
              key={s}
              className="bg-white rounded-4 text-center small p-3"
              style={{ width: 96, boxShadow: `var(--am-shadow${s ? `-${s}` : ''})` }}
            >
              shadow {s || 'md'}
            </div>
          ))}
        </div>
      </section>

      <section className="mb-5" data-section="buttons">
        <h2 className="h4">Buttons</h2>
        <div className="d-flex flex-wrap gap-2 align-items-center mb-2">
          <Button size="lg">Sign up for free</Button>
          <Button>Like</Button>
          <Button size="sm">Small</Button>
          <Button variant="secondary">Secondary</Button>
          <Button variant="outline-primary">Outline</Button>
          <Button variant="light">Light</Button>
          <Button variant="danger">Block</Button>
          <Button isLoading>Saving</Button>
          <Button variant="link">Link</Button>
        </div>
        <h2 className="h4 mt-4">Avatars and badges</h2>
        <div className="d-flex flex-wrap gap-3 align-items-center">
          <Avatar name="Sam" size="sm" />
          <Avatar name="Maya" />
          <Avatar name="Łukasz" size="lg" />
          <Avatar name="Zoë" size="xl" />
          <Badge>Premium</Badge>
          <Badge variant="secondary">New</Badge>
          <Badge variant="success">Online</Badge>
          <CountBadge count={3} label="3 new likes" />
          <CountBadge count={42} label="42 unread messages" />
          <CountBadge count={1200} label="1200 unread messages" />
        </div>
      </section>

      <section className="mb-5" data-section="cards">
        <div className="row g-3">
          <div className="col-md-6">
            <Card title="Complete your profile" footer={<Button size="sm">Add a photo</Button>}>
              <p className="mb-0">Members with a photo get far more replies.</p>
            </Card>
          </div>
          <div className="col-md-6">
            <div className="card p-3">
              <FormField label="Your name" help="Shown on your profile" isRequired>
                <input className="form-control" defaultValue="Sam" />
              </FormField>
              <FormField label="Email address" error="Enter a valid email address.">
                <input className="form-control" defaultValue="sam@" />
              </FormField>
              <FormField label="Show me in search" layout="switch" className="mb-0">
                <input type="checkbox" className="form-check-input" defaultChecked />
              </FormField>
            </div>
          </div>
        </div>
      </section>

      <section className="mb-5" data-section="states">
        <div className="row g-3">
          <div className="col-md-6">
            <div className="card p-3">
              <SkeletonRegion label="Loading…" className="d-flex gap-3">
                <Skeleton shape="circle" width={64} height={64} />
                <div className="flex-grow-1">
                  <Skeleton width="50%" />
                  <SkeletonText lines={3} />
                </div>
              </SkeletonRegion>
              <Skeleton shape="rect" height={140} className="mt-3" />
            </div>
          </div>
          <div className="col-md-6">
            <div className="card">
              <EmptyState
                title="No likes yet"
                text="When someone likes you, you will see them here."
                action={<Button>Search members</Button>}
              />
            </div>
          </div>
        </div>
      </section>

      <section className="mb-5" data-section="overlays">
        <h2 className="h4">Toasts, confirmation, sheet</h2>
        <div className="d-flex flex-wrap gap-2">
          <Button
            testId="show-toasts"
            onClick={() => {
              toast.show({ message: 'Your profile could not be saved. Try again.', variant: 'danger', duration: 0 });
              toast.show({ message: 'Photo uploaded.', variant: 'info', duration: 0 });
              toast.show({ message: 'Saved.', duration: 0 });
            }}
          >
            Show toasts
          </Button>
          <Button
            testId="show-confirm"
            variant="outline-primary"
            onClick={async () => {
              const ok = await confirm({
                title: 'Block Maya?',
                message: 'She can no longer see your profile or write to you.',
                confirmLabel: 'Block',
                isDanger: true,
              });
              setAnswer(ok ? 'blocked' : 'kept');
            }}
          >
            Confirm
          </Button>
          <Button testId="show-sheet" variant="light" onClick={() => setIsSheetOpen(true)}>
            Sheet
          </Button>
          <span role="status">{answer}</span>
        </div>
        <Sheet
          isOpen={isSheetOpen}
          onClose={() => setIsSheetOpen(false)}
          title="Filter"
          testId="gallery-sheet"
          footer={
            <Button isBlock onClick={() => setIsSheetOpen(false)}>
              Show 200 members
            </Button>
          }
        >
          <FormField label="Age from">
            <input className="form-control" type="number" defaultValue={25} />
          </FormField>
        </Sheet>
      </section>
    </main>
  );
}

await initI18n('en');
createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <ToastProvider>
      <ConfirmProvider>
        <Gallery />
      </ConfirmProvider>
    </ToastProvider>
  </StrictMode>,
);
