import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useMe } from '../api/console';
import { sectionsFor } from '../sections';
import { useConsoleTitle } from '../shell/use-console-title';

/** The console's home: the sections of the staff member's role, as cards. */
export function ConsoleHome() {
  const { t } = useTranslation('console');
  const me = useMe();
  useConsoleTitle(t('home.title'));
  return (
    <>
      <h1 className="h3 mb-1">{t('home.title')}</h1>
      <p className="text-body-secondary mb-4">{t('home.intro', { name: me.name })}</p>
      <ul className="console-cards list-unstyled" data-testid="console-sections">
        {sectionsFor(me.role).map((section) => (
          <li key={section.path}>
            <Link
              to={`/console/${section.path}`}
              className="card console-card h-100 text-decoration-none"
              data-testid={`card-${section.path}`}
            >
              <span className="card-body">
                <span className="card-title h5 d-block">{t(section.label as never)}</span>
                <span className="card-text text-body-secondary d-block">{t(section.description as never)}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </>
  );
}
