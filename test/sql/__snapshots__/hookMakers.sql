-- lockDelegation
select "roles" from "delegates" where "seller_id" = $1 and "user_id" = $2 and ("email" is null or "accepted_at" is not null) for share;
