import { Suspense, type ComponentType, type ReactNode } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { Center } from '@mantine/core';
import { SessionProvider } from '../lib/session';
import { AppLayout } from './layout/AppLayout';
import { Providers } from './Providers';
import { PushTopicSync } from './PushTopicSync';
import { RouteGuard } from './RouteGuard';
import { NotFound, routes } from './routes';
import { Loading } from '../components/Loading';

/**
 * Root component: providers, session, the app shell, the route guard and the route table.
 * `Router` is the browser's history; the build's prerender (src/prerender.tsx) passes a static one.
 */
export function App({ Router = BrowserRouter }: { Router?: ComponentType<{ children: ReactNode }> }) {
  return (
    <Providers>
      <Router>
        <SessionProvider>
          <PushTopicSync />
          <AppLayout>
            <RouteGuard>
              <Suspense
                fallback={
                  <Center h="60vh">
                    <Loading />
                  </Center>
                }
              >
                <Routes>
                  {routes.map((r) => (
                    <Route key={r.path} path={r.path} element={<r.element {...(r.props ?? {})} />} />
                  ))}
                  <Route path="*" element={<NotFound />} />
                </Routes>
              </Suspense>
            </RouteGuard>
          </AppLayout>
        </SessionProvider>
      </Router>
    </Providers>
  );
}
