import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LocalLink } from '@/shared/site/local-link';
import { usePageTitle } from '@/shared/site/use-page-title';

interface ErrorPageProps {
  status?: number;
  message?: string;
}

/** Spec §8: the status (500 by default) and the message ('Error' by default); 404 offers the way home. */
export function ErrorPage({ status = 500, message }: ErrorPageProps) {
  const { t } = useTranslation();
  const text = message ?? (status === 404 ? t('errors.notFound') : t('errors.default'));
  usePageTitle(text);
  return (
    <main className="error-page container" id="main">
      <p className="status" aria-hidden="true">
        {status}
      </p>
      <h1 className="h2">{text}</h1>
      <p className="mt-4 mb-0">
        {status === 404 ? (
          <LocalLink to="/" className="btn btn-primary btn-lg">
            {t('errors.backHome')}
          </LocalLink>
        ) : (
          <a href="/" className="btn btn-primary btn-lg">
            {t('errors.backHome')}
          </a>
        )}
      </p>
    </main>
  );
}

/** When the error page itself fails (spec §8). Plain text: nothing here may fail again. */
export class ErrorPageBoundary extends Component<{ children: ReactNode; fallbackText: string; homeText: string }, { hasFailed: boolean }> {
  override state = { hasFailed: false };
  static getDerivedStateFromError() {
    return { hasFailed: true };
  }
  override render() {
    if (this.state.hasFailed) {
      return (
        <main className="error-page container">
          <h1 className="h4">{this.props.fallbackText}</h1>
          <a href="/">{this.props.homeText}</a>
        </main>
      );
    }
    return this.props.children;
  }
}
