import { Suspense } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { Center, Loader } from '@mantine/core';
import { Providers } from './Providers';
import { NotFound, routes } from './routes';

/** Root component: providers and the route table (the app shell wraps it). */
export function App() {
  return (
    <Providers>
      <BrowserRouter>
        <Suspense fallback={<Center h="60vh"><Loader /></Center>}>
          <Routes>
            {routes.map((r) => (
              <Route key={r.path} path={r.path} element={<r.element {...(r.props ?? {})} />} />
            ))}
            <Route path="*" element={<NotFound />} />
          </Routes>
        </Suspense>
      </BrowserRouter>
    </Providers>
  );
}
