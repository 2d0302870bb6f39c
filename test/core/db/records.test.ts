import type { ResultOf } from 'gql.tada';
import { describe, expectTypeOf, it } from 'vitest';
import type { PartName } from '../../../electron/core/db/parts';
import type {
  CourseRecord,
  LectureRecord,
  PaymentRecord,
  ProfileRecord,
  SiteSnapshot,
} from '../../../electron/core/db/records';
import type {
  CoursesQuery,
  PaymentsQuery,
  ProfileQuery,
} from '../../../electron/core/graphql/documents';

type CourseOfQuery = NonNullable<
  ResultOf<typeof CoursesQuery>['viewer']
>['enrolledCourses']['nodes'][number];
type PaymentOfQuery = NonNullable<
  ResultOf<typeof PaymentsQuery>['viewer']
>['payments']['nodes'][number];

// Checked by the compiler (npm run typecheck): the records are the sync documents' results, so a
// field a query asks for cannot be missing from its record, and one the query drops cannot linger
// in it.
describe('the stored records are the results of the sync documents', () => {
  it('have exactly the fields each query asks for', () => {
    expectTypeOf<keyof CourseRecord>().toEqualTypeOf<keyof CourseOfQuery>();
    expectTypeOf<keyof PaymentRecord>().toEqualTypeOf<keyof PaymentOfQuery>();
    expectTypeOf<keyof ProfileRecord>().toEqualTypeOf<
      keyof NonNullable<ResultOf<typeof ProfileQuery>['viewer']>
    >();
    expectTypeOf<keyof CourseRecord['detailProgress']>().toEqualTypeOf<
      keyof CourseOfQuery['detailProgress']
    >();
    expectTypeOf<keyof SiteSnapshot>().toEqualTypeOf<PartName>();
  });

  it('take any value of an enum the site sends (shown, not thrown), and are read-only', () => {
    expectTypeOf<LectureRecord['state']>().toEqualTypeOf<string>();
    expectTypeOf<PaymentRecord['paymentType']>().toEqualTypeOf<string>();
    expectTypeOf<CourseRecord['sections']>().toEqualTypeOf<
      readonly CourseRecord['sections'][number][]
    >();
    expectTypeOf<CourseRecord['description']>().toEqualTypeOf<string | null>();
  });
});
