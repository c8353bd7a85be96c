import { MODERATION_KINDS, type ModerationAction, type ModerationItem, type ModerationKind } from '@amora/contracts';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { consoleErrorText } from '../console-error';
import { FictionalBadge } from '../shell/fictional-badge';
import { formatConsoleTime } from '../shell/format';
import { useConsoleTitle } from '../shell/use-console-title';
import { useModerationAction, useModerationItem, useUndoSanction } from './moderation-api';

/** What can be done about each kind of item. */
const ACTIONS: Record<ModerationKind, readonly ModerationAction[]> = {
  message_report: ['dismiss', 'remove_message', 'warn', 'suspend', 'ban'],
  profile_report: ['dismiss', 'remove_photo', 'warn', 'suspend', 'ban'],
  complaint: ['dismiss', 'warn', 'suspend', 'ban'],
  photo: ['approve_photo', 'remove_photo', 'warn', 'suspend', 'ban'],
};

/** A suspension's lengths to choose from, in days. */
const SUSPENSION_DAYS = [1, 3, 7, 30, 90] as const;

const isKind = (value: string | undefined): value is ModerationKind => MODERATION_KINDS.includes(value as ModerationKind);

function Conversation({ item }: { item: ModerationItem }) {
  const { t, i18n } = useTranslation('console');
  if (!item.conversation) return null;
  return (
    <section className="card card-body mb-3" aria-labelledby="moderation-conversation">
      <h2 className="h5" id="moderation-conversation">
        {t('moderation.conversation')}
      </h2>
      <ol className="list-unstyled mb-0" data-testid="moderation-conversation">
        {item.conversation.messages.map((m) => (
          <li
            key={m.id}
            className={`border-start border-3 ps-2 mb-2 ${m.is_reported ? 'border-danger bg-danger-subtle' : m.from_reported ? 'border-warning' : 'border-secondary'}`}
            data-testid={`message-${m.id}`}
          >
            <div className="small text-body-secondary" data-profile-id={m.sender_profile_id}>
              <strong>{m.sender_name}</strong>
              {m.sender_is_fictional && <FictionalBadge className="ms-1" />}
              {m.from_reported && <span className="badge text-bg-warning ms-1">{t('moderation.reportedSide')}</span>}
              {m.is_reported && <span className="badge text-bg-danger ms-1">{t('moderation.reportedMessage')}</span>}
              {m.status === 'rejected' && <span className="badge text-bg-dark ms-1">{t('moderation.removed')}</span>}
              <span className="ms-2">{formatConsoleTime(m.created_at, i18n.language)}</span>
            </div>
            <div className={m.status === 'rejected' ? 'text-decoration-line-through' : undefined}>
              {m.kind === 'text' ? m.body : t(`moderation.messageKinds.${m.kind}`, { defaultValue: m.kind })}
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}

function Reported({ item }: { item: ModerationItem }) {
  const { t } = useTranslation('console');
  const profile = item.reported;
  if (!profile) return null;
  return (
    <section className="card card-body mb-3" aria-labelledby="moderation-profile" data-testid="moderation-profile">
      <h2 className="h5" id="moderation-profile" data-profile-id={profile.profile_id}>
        {profile.name}
        {profile.is_fictional && <FictionalBadge className="ms-2" />}
      </h2>
      <dl className="row mb-2 small">
        <dt className="col-sm-3">{t('moderation.age')}</dt>
        <dd className="col-sm-9">{profile.age}</dd>
        <dt className="col-sm-3">{t('moderation.city')}</dt>
        <dd className="col-sm-9">{profile.city ?? '–'}</dd>
        <dt className="col-sm-3">{t('moderation.profileStatus')}</dt>
        <dd className="col-sm-9">{profile.status}</dd>
        <dt className="col-sm-3">{t('moderation.about')}</dt>
        <dd className="col-sm-9" style={{ whiteSpace: 'pre-wrap' }}>
          {profile.about || '–'}
        </dd>
      </dl>
      {profile.photos.length > 0 && (
        <div className="d-flex flex-wrap gap-2">
          {profile.photos.map((p) => (
            <figure key={p.id} className="m-0 text-center small">
              <img src={p.url} alt={t('moderation.photoOf', { name: profile.name })} width={120} className="rounded" />
              <figcaption>
                #{p.id} · {p.status}
              </figcaption>
            </figure>
          ))}
        </div>
      )}
    </section>
  );
}

function Sanctions({ item }: { item: ModerationItem }) {
  const { t, i18n } = useTranslation('console');
  const undo = useUndoSanction();
  return (
    <section className="card card-body mb-3" aria-labelledby="moderation-sanctions">
      <h2 className="h5" id="moderation-sanctions">
        {t('moderation.sanctions')}
      </h2>
      <p className="small text-body-secondary">{t('moderation.reportsAbout', { count: item.reports_about })}</p>
      {item.sanctions.length === 0 ? (
        <p className="small mb-0">{t('moderation.noSanctions')}</p>
      ) : (
        <ul className="list-unstyled mb-0" data-testid="moderation-sanctions">
          {item.sanctions.map((s) => (
            <li key={s.id} className="mb-2 d-flex align-items-center gap-2 flex-wrap" data-testid={`sanction-${s.id}`}>
              <span className={`badge ${s.active ? 'text-bg-danger' : 'text-bg-light'}`}>{t(`moderation.sanctionKinds.${s.kind}`)}</span>
              <span className="small">
                {formatConsoleTime(s.created_at, i18n.language)}
                {s.until && ` · ${t('moderation.until', { until: formatConsoleTime(s.until, i18n.language) })}`}
                {s.staff_name && ` · ${s.staff_name}`}
                {s.reason && ` · “${s.reason}”`}
                {s.lifted_at && ` · ${t('moderation.lifted', { when: formatConsoleTime(s.lifted_at, i18n.language) })}`}
              </span>
              {s.active && (
                <Button
                  variant="outline-secondary"
                  size="sm"
                  disabled={undo.isPending}
                  onClick={() => undo.mutate(s.id)}
                  testId={`undo-${s.id}`}
                >
                  {t('moderation.undo')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {undo.isError && (
        <div className="alert alert-danger mt-2 mb-0" role="alert">
          {consoleErrorText(t, undo.error)}
        </div>
      )}
      {undo.data && (
        <div className="alert alert-success mt-2 mb-0" role="status" data-testid="undo-done">
          {t('moderation.lifted', { when: formatConsoleTime(undo.data.sanction.lifted_at ?? new Date().toISOString(), i18n.language) })}
          {undo.data.not_restored.includes('message') && ` ${t('moderation.messageNotRestored')}`}
        </div>
      )}
    </section>
  );
}

function Actions({ item }: { item: ModerationItem }) {
  const { t } = useTranslation('console');
  const ids = useId();
  const act = useModerationAction(item.kind, item.id);
  const choices = ACTIONS[item.kind];
  const [action, setAction] = useState<ModerationAction>(choices[0]);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const photo = Number(data.get('photo_id'));
    act.mutate({
      action,
      reason: String(data.get('reason') ?? '').trim(),
      ...(action === 'suspend' ? { hours: Number(data.get('days')) * 24 } : {}),
      ...(action === 'remove_photo' && item.kind === 'profile_report' && photo > 0 ? { photo_id: photo } : {}),
    });
  };
  return (
    <form className="card card-body mb-3" onSubmit={submit} aria-labelledby={`${ids}-title`} data-testid="moderation-actions">
      <h2 className="h5" id={`${ids}-title`}>
        {t('moderation.act')}
      </h2>
      <fieldset className="mb-3">
        <legend className="form-label fs-6">{t('moderation.action')}</legend>
        {choices.map((choice) => (
          <div className="form-check form-check-inline" key={choice}>
            <input
              className="form-check-input"
              type="radio"
              name="action"
              id={`${ids}-${choice}`}
              value={choice}
              checked={action === choice}
              onChange={() => setAction(choice)}
            />
            <label className="form-check-label" htmlFor={`${ids}-${choice}`}>
              {t(`moderation.actions.${choice}`)}
            </label>
          </div>
        ))}
      </fieldset>
      {action === 'suspend' && (
        <div className="mb-3">
          <label className="form-label" htmlFor={`${ids}-days`}>
            {t('moderation.duration')}
          </label>
          <select id={`${ids}-days`} name="days" className="form-select" defaultValue="7">
            {SUSPENSION_DAYS.map((days) => (
              <option key={days} value={days}>
                {t('moderation.days', { count: days })}
              </option>
            ))}
          </select>
        </div>
      )}
      {action === 'remove_photo' && item.kind === 'profile_report' && (
        <div className="mb-3">
          <label className="form-label" htmlFor={`${ids}-photo`}>
            {t('moderation.photo')}
          </label>
          <select id={`${ids}-photo`} name="photo_id" className="form-select">
            {item.reported?.photos.map((p) => (
              <option key={p.id} value={p.id}>
                #{p.id} ({p.status})
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="mb-3">
        <label className="form-label" htmlFor={`${ids}-reason`}>
          {t('moderation.reason')}
        </label>
        <textarea id={`${ids}-reason`} name="reason" className="form-control" rows={2} maxLength={1000} />
        <div className="form-text">{t('moderation.reasonHint')}</div>
      </div>
      <div>
        <Button type="submit" variant={action === 'ban' ? 'danger' : 'primary'} disabled={act.isPending} testId="moderation-apply">
          {t('moderation.apply')}
        </Button>
      </div>
      {act.isError && (
        <div className="alert alert-danger mt-3 mb-0" role="alert">
          {consoleErrorText(t, act.error)}
        </div>
      )}
      {act.data && (
        <div className="alert alert-success mt-3 mb-0" role="status" data-testid="moderation-done">
          {t('moderation.done', { resolution: t(`moderation.resolutions.${act.data.resolution}`, { defaultValue: act.data.resolution }) })}
        </div>
      )}
    </form>
  );
}

/** One item of the queue: what was reported in its context, the member's sanctions, and what to do about it. */
export function ItemPage() {
  const { t, i18n } = useTranslation('console');
  const params = useParams();
  const kind = isKind(params.kind) ? params.kind : 'complaint';
  const id = Number(params.id);
  const item = useModerationItem(kind, id);
  useConsoleTitle(t(`moderation.kinds.${kind}`));
  return (
    <>
      <Link to="/console/moderation" className="small">
        {t('moderation.back')}
      </Link>
      <h1 className="h3 my-3">
        {t(`moderation.kinds.${kind}`)} {item.data?.complaint?.reference ?? `#${id}`}
        {item.data && (
          <span
            className={`badge ms-2 fs-6 ${item.data.status === 'open' ? 'text-bg-warning' : 'text-bg-success'}`}
            data-testid="item-status"
          >
            {t(`moderation.statuses.${item.data.status}`)}
          </span>
        )}
      </h1>
      {item.isPending && <div className="spinner-border" role="status" aria-label={t('loading')} />}
      {item.isError && (
        <div className="alert alert-danger" role="alert">
          {consoleErrorText(t, item.error)}
        </div>
      )}
      {item.data && (
        <div className="row g-3">
          <div className="col-lg-7">
            {item.data.complaint && (
              <section className="card card-body mb-3" aria-labelledby="moderation-report" data-testid="moderation-report">
                <h2 className="h5" id="moderation-report">
                  {item.data.complaint.subject}
                </h2>
                <p className="small text-body-secondary mb-2">
                  {item.data.complaint.name} &lt;{item.data.complaint.email}&gt; · {formatConsoleTime(item.data.created_at, i18n.language)}
                </p>
                <p className="mb-0" style={{ whiteSpace: 'pre-wrap' }}>
                  {item.data.complaint.message}
                </p>
              </section>
            )}
            {item.data.photo && (
              <section className="card card-body mb-3" aria-labelledby="moderation-photo">
                <h2 className="h5" id="moderation-photo">
                  {t('moderation.photo')} #{item.data.photo.id} · {item.data.photo.status}
                </h2>
                <img
                  src={item.data.photo.url}
                  alt={t('moderation.photoOf', { name: item.data.reported?.name ?? '' })}
                  className="img-fluid rounded"
                  style={{ maxHeight: 480 }}
                />
              </section>
            )}
            <Conversation item={item.data} />
            <Reported item={item.data} />
          </div>
          <div className="col-lg-5">
            <Actions item={item.data} />
            <Sanctions item={item.data} />
          </div>
        </div>
      )}
    </>
  );
}
