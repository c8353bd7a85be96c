import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { useEndSession, useSessions } from '../api/console';
import { consoleErrorText } from '../console-error';
import { formatConsoleTime } from '../shell/format';
import { useConsoleTitle } from '../shell/use-console-title';

/** My sessions (everyone): where I am signed in to the console, and ending one of the others. */
export function SessionsPage() {
  const { t, i18n } = useTranslation('console');
  const sessions = useSessions();
  const end = useEndSession();
  const [ending, setEnding] = useState<string | null>(null);
  useConsoleTitle(t('sessions.title'));
  return (
    <>
      <h1 className="h3 mb-1">{t('sessions.title')}</h1>
      <p className="text-body-secondary mb-4">{t('sessions.intro')}</p>
      {end.isError && (
        <div className="alert alert-danger" role="alert">
          {consoleErrorText(t, end.error)}
        </div>
      )}
      {sessions.isPending && <div className="spinner-border" role="status" aria-label={t('loading')} />}
      {sessions.isError && (
        <div className="alert alert-danger" role="alert">
          {consoleErrorText(t, sessions.error)}
        </div>
      )}
      {sessions.data && (
        <div className="table-responsive">
          <table className="table console-table align-middle" data-testid="sessions-table">
            <caption className="visually-hidden">{t('sessions.title')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('sessions.device')}</th>
                <th scope="col">{t('sessions.ip')}</th>
                <th scope="col">{t('sessions.started')}</th>
                <th scope="col">{t('sessions.lastSeen')}</th>
                <th scope="col" className="text-end">
                  <span className="visually-hidden">{t('staff.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.data.sessions.map((session) => (
                <tr key={session.id} data-testid={`session-${session.id}`}>
                  <td className="text-break small">{session.user_agent || '—'}</td>
                  <td className="small">{session.ip}</td>
                  <td className="small text-nowrap">{formatConsoleTime(session.created_at, i18n.language)}</td>
                  <td className="small text-nowrap">{formatConsoleTime(session.last_seen_at, i18n.language)}</td>
                  <td className="text-end">
                    {session.current ? (
                      <span className="badge text-bg-success">{t('sessions.current')}</span>
                    ) : (
                      <Button
                        variant="outline-danger"
                        size="sm"
                        isLoading={end.isPending && ending === session.id}
                        onClick={() => {
                          setEnding(session.id);
                          end.mutate(session.id);
                        }}
                        aria-label={t('sessions.endLabel', { device: session.user_agent || session.ip })}
                        testId={`session-end-${session.id}`}
                      >
                        {t('sessions.end')}
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

export { SessionsPage as Component };
