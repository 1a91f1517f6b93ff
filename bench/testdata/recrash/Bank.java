package bank;

/**
 * A small-method workload for bench/recrash.sh: accounts with balances and
 * transfers between them, each transfer a dozen calls of getters, setters
 * and checks, as an application's domain code is. Run with the number of
 * transfers in millions; prints the total (which transfers keep) and the
 * number refused.
 */
public final class Bank {
    /** The largest amount one transfer may move. */
    static final long LIMIT = 10_000;

    private final Account[] accounts;
    private long refused;

    Bank(int n, long opening) {
        accounts = new Account[n];
        for (int i = 0; i < n; i++) accounts[i] = new Account(i, opening);
    }

    int size() { return accounts.length; }

    Account account(int i) { return accounts[i]; }

    static boolean validAmount(long amount) { return amount > 0 && amount <= LIMIT; }

    /** The fee of a transfer: half a percent, at least 1. */
    static long fee(long amount) { return Math.max(1, amount / 200); }

    boolean known(Account a) { return a.id() >= 0 && a.id() < size() && account(a.id()) == a; }

    /** Moves amount from one account to another; false if refused. */
    boolean transfer(Account from, Account to, long amount) {
        if (!validAmount(amount) || from == to || !known(from) || !known(to)) {
            refused++;
            return false;
        }
        long fee = fee(amount);
        if (!from.canWithdraw(amount + fee)) {
            refused++;
            return false;
        }
        from.withdraw(amount + fee);
        to.deposit(amount);
        accounts[0].deposit(fee);
        return true;
    }

    long total() {
        long t = 0;
        for (int i = 0; i < size(); i++) t += account(i).balance();
        return t;
    }

    long refused() { return refused; }

    static final class Account {
        private final int id;
        private long balance;
        private int moves;
        private final long[] last = new long[8];

        Account(int id, long balance) {
            this.id = id;
            this.balance = balance;
        }

        int id() { return id; }
        long balance() { return balance; }
        void setBalance(long b) { balance = b; }
        boolean canWithdraw(long amount) { return balance() >= amount; }
        void withdraw(long amount) { setBalance(balance() - amount); moved(-amount); }
        void deposit(long amount) { setBalance(balance() + amount); moved(amount); }
        void moved(long amount) { last[moves++ & 7] = amount; }
    }

    /** A linear congruential generator: the transfers' accounts and amounts. */
    static final class Random {
        private long seed;

        Random(long seed) { this.seed = seed; }

        int next(int bound) {
            seed = seed * 6364136223846793005L + 1442695040888963407L;
            return (int) ((seed >>> 33) % bound);
        }
    }

    /** A batch of transfers (a method of its own, so that it is compiled, not run on stack replacement). */
    static void batch(Bank bank, Random r, int n) {
        for (int i = 0; i < n; i++) {
            Account from = bank.account(r.next(bank.size())), to = bank.account(r.next(bank.size()));
            bank.transfer(from, to, r.next((int) LIMIT + 100));
        }
    }

    public static void main(String[] args) {
        int millions = Integer.parseInt(args[0]);
        Bank bank = new Bank(Integer.parseInt(args[1]), 1_000_000);
        Random r = new Random(42);
        for (int m = 0; m < millions; m++) batch(bank, r, 1_000_000);
        System.out.println(bank.total() + " " + bank.refused());
    }
}
