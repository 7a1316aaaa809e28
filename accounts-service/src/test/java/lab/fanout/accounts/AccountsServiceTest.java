package lab.fanout.accounts;

import lab.fanout.downstream.contract.DownstreamServiceContract;

/** accounts-service keeps the downstream contract at the seed demo's path. */
class AccountsServiceTest extends DownstreamServiceContract {

    AccountsServiceTest() {
        super("/account/api/v1/accounts");
    }
}
