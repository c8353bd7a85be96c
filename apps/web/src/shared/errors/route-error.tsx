import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { isChunkLoadError, reloadForChunkError } from '@/lib/chunk-reload';
import { ErrorPage, ErrorPageBoundary } from './error-page';

/** errorElement of every route: a failed chunk reloads once, anything else shows the error page. */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  if (isChunkLoadError(error) && reloadForChunkError()) return null;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  if (status !== 404) console.error(error);
  return (
    <ErrorPageBoundary fallbackText={t('errors.errorPageFailed')} homeText={t('errors.backHome')}>
      <ErrorPage status={status} />
    </ErrorPageBoundary>
  );
}

export function NotFoundPage() {
  return <ErrorPage status={404} />;
}
