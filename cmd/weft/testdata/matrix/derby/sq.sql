-- The program matrix's Derby workload (matrix_ecj_derby_test.go), run by
-- ij: a database created under derby.system.home, a table of 10 rows, an
-- SQL function over SqFn.probeSq called once a row, and queries Derby
-- compiles to classes of its own at run time.
connect 'jdbc:derby:sqdb;create=true';
create table t (i int primary key, grp varchar(8));
insert into t values (0, 'even'), (1, 'odd'), (2, 'even'), (3, 'odd'), (4, 'even');
insert into t values (5, 'odd'), (6, 'even'), (7, 'odd'), (8, 'even'), (9, 'odd');
create table names (grp varchar(8) primary key, label varchar(20));
insert into names values ('even', 'divisible by two'), ('odd', 'not divisible');
create function probeSq(i int) returns int language java parameter style java no sql external name 'SqFn.probeSq';
select sum(probeSq(i)) as sq from t;
select i, grp from t where i > 5 order by i desc;
select grp, count(*) as n, sum(i) as s from t group by grp order by grp;
select n.label, count(*) as c, max(t.i) as top from t join names n on t.grp = n.grp group by n.label order by n.label;
disconnect;
exit;
