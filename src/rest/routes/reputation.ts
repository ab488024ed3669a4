// Rating a completed task over REST.
import { graphql } from '../../generated/gql/index.js';
import { invalid } from '../../errors.js';
import { route } from '../route.js';
import { data } from '../shape.js';

// The body is { rating: 1..5 } and nothing else.
function ratingOf(body: Record<string, unknown> | undefined): number {
  const unknown = Object.keys(body ?? {}).find((key) => key !== 'rating');
  if (unknown) throw invalid(unknown, `${unknown} is not a field of a rating; send { "rating": 1 to 5 }`);
  const rating = body?.rating;
  if (typeof rating !== 'number' || !Number.isInteger(rating) || rating < 1 || rating > 5) {
    throw invalid('rating', 'rating must be a whole number from 1 to 5');
  }
  return rating;
}

export const reputationRoutes = [
  route({
    method: 'POST',
    path: '/v1/tasks/:id/rating',
    idempotent: true,
    document: graphql(`
      mutation RestRateTask($taskId: ID!, $rating: Int!) {
        rateTask(taskId: $taskId, rating: $rating) {
          taskId
          agentId
          rating
          ratedAt
          avgRating
        }
      }
    `),
    variables: (req) => ({ taskId: req.params.id!, rating: ratingOf(req.body) }),
    summary: 'Rate a completed task once, 1 to 5',
    request: { body: ['rating'] },
    answer: { status: 201, body: data('rateTask') },
  }),
];
